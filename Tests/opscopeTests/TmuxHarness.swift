import CommandSupport
import Foundation

@testable import opscope

#if canImport(Glibc)
    import Glibc
#endif

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
    /// With `startDelay`, the shell waits that many seconds before it starts
    /// the program (for keys typed before the program runs). It runs in the
    /// package's root, or in `directory`. With `standardOutput`, its
    /// standard output goes to that file, and only standard error to the
    /// terminal.
    init(
        _ arguments: [String], columns: Int = 120, rows: Int = 40, environment: [String: String] = [:],
        startDelay: Double = 0, directory: String? = nil, standardOutput: String? = nil
    ) throws {
        name = "opscope-test-\(UUID().uuidString.prefix(8))"
        // A server of its own per session: when a shared server loses its
        // last session it shuts down, and can take the next test's new
        // session with it.
        socket = name
        guard TmuxSession.tmuxPath != nil else {
            throw Failure(description: "tmux is not installed: the interface tests need it (apt-get install -y tmux)")
        }
        let binary = OpscopeBinary.url.path
        let exports = environment.map { "export \($0.key)=\(Self.shellQuote($0.value)); " }.joined()
        // The shell records the terminal settings before and after, so a
        // test can see that opscope restored them.
        let command =
            exports + "cd \(Self.shellQuote(directory ?? OpscopeBinary.packageRoot.path)) && "
            // Ctrl-C reaches the whole foreground group, this shell too:
            // a trap (reset to the default in opscope by exec) keeps the
            // shell alive to report, as an interactive shell would.
            + "trap : INT; before=$(stty -g); "
            + (startDelay > 0 ? "sleep \(startDelay); " : "")
            + ([binary] + arguments).map(Self.shellQuote).joined(separator: " ")
            + (standardOutput.map { " > " + Self.shellQuote($0) } ?? "")
            + "; status=$?; echo \"[exit $status]\"; "
            + "if [ \"$before\" = \"$(stty -g)\" ]; then echo '[terminal restored]'; "
            + "else echo '[terminal changed]'; fi; exec sh"
        try tmux([
            "new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows),
            "env TERM=tmux-256color LANG=C.UTF-8 PS1='$ ' sh -c \(Self.shellQuote(command))",
        ])
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// From now on, every byte the pane is sent is appended to a file:
    /// the record of what was drawn, for lines that show and are erased
    /// faster than a screen can be read. Start the program with a
    /// `startDelay` so that nothing is written before the record starts.
    func recordOutput() throws -> URL {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-pane.log")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        _ = try tmux(["pipe-pane", "-O", "-t", name, "cat >> " + Self.shellQuote(file.path)])
        return file
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
        try sendKeys(keys)
    }

    /// The same, from an array.
    func sendKeys(_ keys: [String]) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// Sends raw bytes to the program, as a terminal would write them (a
    /// mouse report, say), through `send-keys -H`.
    func sendBytes(_ bytes: [UInt8]) throws {
        try tmux(["send-keys", "-t", name, "-H"] + bytes.map { String(format: "%02x", $0) })
    }

    /// A press (and, unless `pressOnly`, the release) of `button` (0: the
    /// primary, 64/65: wheel up/down) at a 0-based column and row, as an
    /// xterm reports it in X10 format (DECSET 1000): `ESC [ M` and three
    /// bytes, each 32 + button, column + 1, row + 1.
    static func x10Click(column: Int, row: Int, button: Int = 0, pressOnly: Bool = false) -> [UInt8] {
        func report(_ b: Int) -> [UInt8] { [0x1B, 0x5B, 0x4D, UInt8(32 + b), UInt8(33 + column), UInt8(33 + row)] }
        return report(button) + (pressOnly ? [] : report(3))
    }

    /// The same in SGR format (DECSET 1006): `ESC [ < b ; x ; y M`, then
    /// `… m` for the release; x and y 1-based.
    static func sgrClick(column: Int, row: Int, button: Int = 0, pressOnly: Bool = false) -> [UInt8] {
        let press = "\u{1B}[<\(button);\(column + 1);\(row + 1)M"
        let release = pressOnly ? "" : "\u{1B}[<\(button);\(column + 1);\(row + 1)m"
        return Array((press + release).utf8)
    }

    /// The mouse modes the program has turned on in its terminal, as tmux
    /// tracks them for the pane: `standard` is click tracking (1000),
    /// `button` drag tracking (1002), `all` any-motion tracking (1003),
    /// `sgr` the SGR format (1006); each 0 or 1.
    func mouseModes() throws -> String {
        try tmux([
            "display-message", "-p", "-t", name,
            "standard=#{mouse_standard_flag} button=#{mouse_button_flag} all=#{mouse_all_flag} sgr=#{mouse_sgr_flag}",
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Resizes the program's terminal: sets the size of the pane's
    /// pseudo-terminal, and the kernel sends the program SIGWINCH, as when
    /// a terminal window is resized.
    ///
    /// Not `tmux resize-window`: on this machine's tmux (3.3a) resizing a
    /// detached session crashed the tmux server in about one run of five,
    /// with any full-screen program (top too).
    func resize(columns: Int, rows: Int) throws {
        let tty = try tmux(["display-message", "-p", "-t", name, "#{pane_tty}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let (status, _) = try Spawn.run(
            "/bin/stty", ["-F", tty, "cols", String(columns), "rows", String(rows)], captureOutput: false)
        guard status == 0 else { throw Failure(description: "stty -F \(tty) failed") }
    }

    /// Stops (or starts again) the output of the pane's pseudo-terminal,
    /// as a Ctrl-S does where flow control is on: from then on a write to
    /// the terminal that fills its buffer blocks.
    func suspendOutput(_ suspended: Bool) throws {
        let tty = try tmux(["display-message", "-p", "-t", name, "#{pane_tty}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let fd = open(tty, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw Failure(description: "cannot open \(tty)") }
        defer { _ = Glibc.close(fd) }
        guard tcflow(fd, suspended ? TCOOFF : TCOON) == 0 else {
            throw Failure(description: "tcflow on \(tty) failed")
        }
    }

    /// The terminal's input flags as the program left them: whether flow
    /// control (`ixon`) is on.
    func flowControlIsOn() throws -> Bool {
        let tty = try tmux(["display-message", "-p", "-t", name, "#{pane_tty}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let (status, output) = try Spawn.run("/bin/stty", ["-F", tty, "-a"], captureOutput: true)
        guard status == 0 else { throw Failure(description: "stty -F \(tty) -a failed") }
        return output.split(whereSeparator: { $0 == " " || $0 == "\n" }).contains("ixon")
    }

    /// Waits until `condition` holds for the screen text, or fails after
    /// `timeout` real seconds, showing the last screen.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 20, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        while Date() < deadline {
            text = try screenText()
            if condition(text) {
                // A capture can fall in the middle of a frame's writing (the
                // panel drawn, the status line not yet): the screen a moment
                // later is the whole frame, unless what was waited for has
                // passed by then.
                Thread.sleep(forTimeInterval: 0.1)
                let settled = try screenText()
                return condition(settled) ? settled : text
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw Failure(description: "timed out waiting for \(what); screen was:\n\(text)")
    }

    @discardableResult
    func waitFor(text needle: String, timeout: Double = 20) throws -> String {
        try waitFor("'\(needle)'", timeout: timeout) { $0.contains(needle) }
    }

    /// The opscope process in the pane (the shell's child), for signals.
    func programPID() throws -> Int32 {
        let shell = try tmux(["display-message", "-p", "-t", name, "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let (status, output) = try Spawn.run("/usr/bin/pgrep", ["-P", shell, "-x", "opscope"], captureOutput: true)
        guard status == 0, let pid = Int32(output.split(separator: "\n").first ?? "") else {
            throw Failure(description: "no opscope process under the pane's shell \(shell)")
        }
        return pid
    }

    /// The terminal modes the program has set, as tmux tracks them:
    /// `alternate` (the alternate screen), `keypad` (keypad transmit mode,
    /// which makes arrow keys arrive as the codes curses decodes), `cursor`
    /// (the cursor shown); each 0 or 1.
    func terminalModes() throws -> String {
        try tmux([
            "display-message", "-p", "-t", name,
            "alternate=#{alternate_on} keypad=#{keypad_flag} cursor=#{cursor_flag}",
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
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
        let (status, output) = try Spawn.run(
            TmuxSession.tmuxPath ?? "/usr/bin/tmux", ["-L", socket] + arguments,
            captureOutput: ["capture-pane", "display-message"].contains(arguments.first))
        guard status == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (status \(status))")
        }
        return output
    }

    static func shellQuote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
