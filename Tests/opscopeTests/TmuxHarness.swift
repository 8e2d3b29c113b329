import Foundation

/// Drives the real opscope binary inside a detached tmux session, as a
/// person at a terminal would: type keys, read the screen.
///
/// Every wait has a generous real-time bound and fails the test when it
/// runs out; nothing here depends on exact timing.
final class TmuxSession {
    let name: String
    private let socket: String

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `opscope arguments…` in a new `columns`×`rows` tmux session.
    /// The program runs in a shell, so when it exits the shell prompt shows.
    init(_ arguments: [String], columns: Int = 120, rows: Int = 40, environment: [String: String] = [:]) throws {
        name = "opscope-test-\(UUID().uuidString.prefix(8))"
        socket = "opscope-tests-\(getpid())"
        guard TmuxSession.tmuxPath != nil else {
            throw Failure(description: "tmux is not installed: the interface tests need it (apt-get install -y tmux)")
        }
        let binary = OpscopeBinary.url.path
        let exports = environment.map { "export \($0.key)=\(Self.shellQuote($0.value)); " }.joined()
        // The shell records the terminal settings before and after, so a
        // test can see that opscope restored them.
        let command = exports + "cd \(Self.shellQuote(OpscopeBinary.packageRoot.path)) && "
            + "before=$(stty -g); "
            + ([binary] + arguments).map(Self.shellQuote).joined(separator: " ")
            + "; status=$?; echo \"[exit $status]\"; "
            + "if [ \"$before\" = \"$(stty -g)\" ]; then echo '[terminal restored]'; "
            + "else echo '[terminal changed]'; fi; exec sh"
        try tmux([
            "new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows),
            "env TERM=tmux-256color LANG=C.UTF-8 PS1='$ ' sh -c \(Self.shellQuote(command))",
        ])
    }

    deinit {
        _ = try? tmux(["kill-session", "-t", name])
    }

    /// The visible screen, one string per row.
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", name]).components(separatedBy: "\n")
    }

    func screenText() throws -> String {
        try screen().joined(separator: "\n")
    }

    /// Sends tmux key names (`q`, `Space`, `Tab`, `C-c`, `Down`…).
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// Resizes the window (the program gets SIGWINCH).
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
    }

    /// Waits until `condition` holds for the screen text, or fails after
    /// `timeout` real seconds, showing the last screen.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 20, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        while Date() < deadline {
            text = try screenText()
            if condition(text) { return text }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw Failure(description: "timed out waiting for \(what); screen was:\n\(text)")
    }

    func waitFor(text needle: String, timeout: Double = 20) throws {
        try waitFor("'\(needle)'", timeout: timeout) { $0.contains(needle) }
    }

    // MARK: - Plumbing

    static let tmuxPath: String? = {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] {
            let path = dir + "/tmux"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }()

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TmuxSession.tmuxPath ?? "/usr/bin/tmux")
        process.arguments = ["-L", socket] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed")
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func shellQuote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
