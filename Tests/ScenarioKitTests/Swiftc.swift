import Foundation

/// The Swift compiler as a subprocess: `/opt/swift/usr/bin/swiftc` when
/// present, else the one on `PATH`.
enum Swiftc {
    struct Result {
        var status: Int32
        /// Standard output and standard error, together.
        var output: String
    }

    static var executable: String {
        let fixed = "/opt/swift/usr/bin/swiftc"
        if FileManager.default.isExecutableFile(atPath: fixed) { return fixed }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "swiftc"
    }

    /// Writes `program` to a scratch file and runs swiftc on it with
    /// `arguments`; with `thenRun`, compiles it and runs the executable
    /// with `runArguments` (whose output is returned).
    static func run(
        _ arguments: [String], program: String, thenRun: Bool = false, runArguments: [String] = []
    ) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("opscope-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("scenario.swift")
        try Data(program.utf8).write(to: source)
        let binary = directory.appendingPathComponent("scenario").path
        var compile = arguments + [source.path]
        if thenRun { compile += ["-o", binary] }
        let compiled = try launch(executable, compile, timeout: 120)
        guard thenRun, compiled.status == 0 else { return compiled }
        return try launch(binary, runArguments, timeout: 30)
    }

    private static func launch(_ path: String, _ arguments: [String], timeout: Double) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var data = Data()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "swiftc.reader").async {
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            done.wait()
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}
