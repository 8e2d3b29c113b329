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
    /// it runs instead of the package root.
    static func run(
        _ arguments: [String], input: String? = nil, timeout: Double = 60, outputTo path: String? = nil,
        signal: (number: Int32, after: Double)? = nil, environment extra: [String: String] = [:],
        directory: URL? = nil
    ) throws -> ProcessResult {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, new in new }
        process.environment = environment
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
