import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `opscope trace` into a pipe writes in large blocks, but no line waits
/// more than a second: a reader of the pipe follows a slow run as it goes,
/// and a SIGKILL (which no program can answer) loses at most the last
/// second of lines.
@Suite("a trace into a pipe")
struct PipedTraceTests {
    /// `a` ends at once; `b` then works for 20 s, and nothing happens.
    static let slow = """
        queue q
        op a work 1ms
        op b work 20s after a
        """

    /// Standard output of a running `opscope`, read as it comes.
    final class PipeReader: Sendable {
        private let read = Mutex<[UInt8]>([])
        private let ended = Mutex(false)

        init(_ handle: FileHandle) {
            let fd = handle.fileDescriptor
            Thread.detachNewThread { [self] in
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { break }
                    read.withLock { $0.append(contentsOf: chunk[0..<n]) }
                }
                ended.withLock { $0 = true }
            }
        }

        var text: String { String(decoding: read.withLock { $0 }, as: UTF8.self) }
        var hasEnded: Bool { ended.withLock { $0 } }

        /// Waits up to `seconds` for `condition` on what was read; whether it held.
        func wait(_ seconds: Double, until condition: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(text) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return condition(text)
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let format: String
        /// Says `a` finished, in this format.
        let aFinished: @Sendable (String) -> Bool
        var testDescription: String { format }
    }

    static let cases = [
        Case(format: "text") { $0.split(separator: "\n").contains { $0.contains(" a ") && $0.contains("isFinished") } },
        Case(format: "jsonl") { $0.contains(#""op":"a""#) && $0.contains(#""key":"isFinished""#) },
        Case(format: "chrome") { $0.hasPrefix("{") && $0.contains(#""name":"a""#) },
    ]

    @Test(
        "a slow run's first lines reach the pipe long before the run ends, and a SIGKILL keeps them",
        arguments: cases)
    func linesReachThePipeWhileTheRunIsSlow(_ check: Case) throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("slow.ops", Self.slow)
        let process = Process()
        process.executableURL = OpscopeBinary.url
        process.arguments = ["trace", "--format", check.format, path]
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let out = Pipe()
        process.standardOutput = out
        let started = Date()
        try process.run()
        try out.fileHandleForWriting.close()
        let reader = PipeReader(out.fileHandleForReading)
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        // The run lasts 20 s; a block-buffered pipe would show nothing
        // before then. Generous: a busy machine starts a debug build slowly.
        let seen = reader.wait(10, until: check.aFinished)
        let waited = Date().timeIntervalSince(started)
        #expect(seen, "nothing about a read from the pipe after \(waited) s: \(reader.text)")
        #expect(process.isRunning, "the run ended already: the test shows nothing")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(reader.wait(10) { _ in reader.hasEnded })
        let text = reader.text
        #expect(check.aFinished(text), "after SIGKILL: \(text)")
        if check.format == "jsonl" {
            let lines = text.split(separator: "\n")
            #expect(lines.first?.hasPrefix(#"{"kind":"header""#) == true)
            #expect(text.hasSuffix("\n"), "a line cut in two: \(text)")
            for line in lines {
                #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any], "\(line)")
            }
        }
    }
}
