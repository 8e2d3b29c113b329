import Foundation
import Testing

@testable import CommandSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes on their way out, and files on their way in.
@Suite struct OutputTests {
    @Test func aBufferWritesWhenFullOrAskedAndKeepsTheOrder() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        var out = OutputBuffer(fileDescriptor: fds[1], flushAt: 8)
        out.append("abc")
        out.flushIfFull()
        #expect(out.bytes.count == 3, "not full: kept")
        out.append("defghij")
        out.flushIfFull()
        #expect(out.bytes.isEmpty, "full: written")
        out.append("k\n")
        out.flush()
        close(fds[1])
        let read = FileHandle(fileDescriptor: fds[0]).readDataToEndOfFile()
        #expect(String(decoding: read, as: UTF8.self) == "abcdefghijk\n")
        #expect(out.failureText == nil)
    }

    @Test func aWriteThatFailsIsSaidAndNothingMoreIsWritten() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var out = OutputBuffer(fileDescriptor: fd)
        out.append("x")
        out.flush()
        #expect(out.failureText == String(cString: strerror(ENOSPC)))
        out.append("y")
        out.flush()
        #expect(out.bytes.isEmpty)
    }

    @Test func aScenarioFileIsReadOrTheReasonSaid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-cs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.ops").path
        try Data("op a work 1s\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try ScenarioLoading.source(at: path).bytes == Array("op a work 1s\n".utf8))
        #expect(throws: UsageError("no such file '\(path)x'")) { try ScenarioLoading.source(at: path + "x") }
        #expect(throws: UsageError("'\(folder.path)' is a directory, not a scenario file")) {
            try ScenarioLoading.source(at: folder.path)
        }
    }
}
