import Foundation

/// Runs the built `opscope` binary as a separate process, as a user or a
/// script would, and captures what it prints.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum OpscopeBinary {
    /// The `opscope` executable next to the test bundle (SwiftPM builds it
    /// because this test target depends on the executable target).
    static let url: URL = {
        var candidates: [URL] = []
        let arg0 = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        candidates.append(arg0.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        let root = packageRoot
        candidates.append(root.appendingPathComponent(".build/debug"))
        for dir in candidates {
            let url = dir.appendingPathComponent("opscope")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return root.appendingPathComponent(".build/debug/opscope")
    }()

    /// The package's root directory (this file is Tests/opscopeTests/…).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs opscope with `arguments` in the package root, with `input` on
    /// standard input (/dev/null when nil); kills it after `timeout` real
    /// seconds (a generous bound: the test then fails). With `outputTo`,
    /// standard output is that file (`/dev/full`), not captured. With
    /// `signal`, sends it that signal `after` real seconds. `environment`
    /// adds to (or replaces) this process's variables; `directory` is where
    /// it runs instead of the package root; `executable` is another program
    /// built beside opscope (`opscope-bench`).
    /// The binary as a process not started yet: `arguments`, run in
    /// `directory` (the package's root), with this environment, no colours,
    /// and `extra` over it.
    static func process(
        _ arguments: [String], environment extra: [String: String] = [:], directory: URL? = nil,
        executable: URL? = nil
    ) -> Process {
        let process = Process()
        process.executableURL = executable ?? url
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        return process
    }

    static func run(
        _ arguments: [String], input: String? = nil, timeout: Double = 60, outputTo path: String? = nil,
        signal: (number: Int32, after: Double)? = nil, environment extra: [String: String] = [:],
        directory: URL? = nil, executable: URL? = nil
    ) throws -> ProcessResult {
        let process = process(arguments, environment: extra, directory: directory, executable: executable)
        let out = Pipe()
        let err = Pipe()
        if let path, let file = FileHandle(forWritingAtPath: path) {
            process.standardOutput = file
            try out.fileHandleForWriting.close()
        } else {
            process.standardOutput = out
        }
        process.standardError = err
        let inPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        try process.run()
        if let input {
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try inPipe.fileHandleForWriting.close()
        }
        // Read both pipes while the process runs so a full pipe never blocks it.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let signal {
            Thread.sleep(forTimeInterval: signal.after)
            kill(process.processIdentifier, signal.number)
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        if process.isRunning {
            process.terminate()
        }
        process.waitUntilExit()
        group.wait()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A scratch directory with scenario files written by a test.
struct ScratchFiles {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("opscope-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The built `opscope` binary running as a separate process whose
/// standard input is a pipe that stays open (so a read of it waits), with
/// its output collected as it comes: for a test that acts on it while it
/// runs (a signal while it waits for an answer).
final class RunningOpscope: @unchecked Sendable {
    let process: Process
    private let input = Pipe()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private let readers = DispatchGroup()

    init(_ arguments: [String], environment extra: [String: String] = [:], directory: URL? = nil) throws {
        process = OpscopeBinary.process(arguments, environment: extra, directory: directory)
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = input
        try process.run()
        collect(outPipe.fileHandleForReading) { [self] data in out.append(data) }
        collect(errPipe.fileHandleForReading) { [self] data in err.append(data) }
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? input.fileHandleForWriting.close()
    }

    private func collect(_ handle: FileHandle, into keep: @escaping @Sendable (Data) -> Void) {
        DispatchQueue.global().async(group: readers) { [lock] in
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                lock.withLock { keep(data) }
            }
        }
    }

    var pid: Int32 { process.processIdentifier }
    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

    struct Timeout: Error, CustomStringConvertible {
        var description: String
    }

    /// Waits (up to `timeout` real seconds, else throws) until `condition`.
    func waitUntil(_ what: String, timeout: Double = 30, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline, process.isRunning else {
                throw Timeout(
                    description: "\(what): not within \(timeout) s (running: \(process.isRunning)); "
                        + "stdout: \(stdout.suffix(300)) stderr: \(stderr.suffix(300))")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Waits until standard output holds `text`.
    func waitForOutput(_ text: String, timeout: Double = 30) throws {
        try waitUntil("'\(text)' on standard output", timeout: timeout) { stdout.contains(text) }
    }

    /// Waits until the process has a handler for `signal` (its default
    /// action would kill it: the test would see that, not the program).
    func waitForHandler(of signal: Int32, timeout: Double = 30) throws {
        try waitUntil("a handler for signal \(signal)", timeout: timeout) { catches(signal) }
    }

    /// Whether the process has a handler for `signal` (/proc's `SigCgt`).
    func catches(_ signal: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    /// Waits (a few seconds at most) until the main thread sleeps in a
    /// poll, as a read of standard input does; goes on if the kernel does
    /// not say where a thread sleeps.
    func waitForPoll() {
        try? waitUntil("the main thread in poll", timeout: 5) {
            let wchan = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/wchan", encoding: .utf8)) ?? "poll"
            return wchan.contains("poll")
        }
    }

    /// Sends `signal` and waits (up to `timeout`) for the process to end:
    /// its result and the real seconds from the signal to its end; nil
    /// when it did not end (it is then killed).
    func stop(with signal: Int32, timeout: Double = 30) -> (result: ProcessResult, seconds: Double)? {
        let sent = Date()
        kill(pid, signal)
        let deadline = sent.addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let seconds = Date().timeIntervalSince(sent)
        guard !process.isRunning else {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        readers.wait()
        return (ProcessResult(status: process.terminationStatus, stdout: stdout, stderr: stderr), seconds)
    }
}

/// The built `opscope` binary as a separate process writing its standard
/// output and error into two files of a scratch folder, read as they
/// grow: for a command that goes on (`trace --watch`) while a test edits
/// its file and then sends it a signal.
final class OpscopeIntoFiles {
    let process: Process
    let out: URL
    let err: URL

    init(_ arguments: [String], in scratch: ScratchFiles, environment: [String: String] = [:]) throws {
        out = scratch.directory.appendingPathComponent("out.txt")
        err = scratch.directory.appendingPathComponent("err.txt")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process = OpscopeBinary.process(arguments, environment: environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits (up to `timeout` real seconds, else throws) until `file` holds
    /// `what` at least `count` times; returns its text.
    @discardableResult
    func waitFor(_ what: String, in file: URL, count: Int = 1, timeout: Double = 60) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        while Date() < deadline {
            text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if text.components(separatedBy: what).count > count { return text }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TmuxSession.Failure(description: "timed out waiting for \(count) × '\(what)'; got:\n\(text.suffix(2000))")
    }

    /// Sends `signal` and waits (up to 10 s) for the end: its exit status,
    /// nil if it still runs.
    func stop(with signal: Int32) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
