import CommandSupport
import Foundation
import Testing

/// The trace's output buffer: everything written, in order, and a buffer
/// that grew for one large piece (a recording's header) not kept so.
@Suite struct OutputBufferTests {
    @Test func aBufferThatGrewForOnePieceGoesBackToItsSizeAndLosesNothing() throws {
        let path = NSTemporaryDirectory() + "opscope-output-\(getpid()).bin"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        var out = OutputBuffer(fileDescriptor: handle.fileDescriptor, flushAt: 1024)
        let large = [UInt8](repeating: UInt8(ascii: "h"), count: 100_000)
        out.bytes.append(contentsOf: large)
        out.flushIfFull()
        #expect(out.bytes.capacity < 4 * 1024 + 4096)
        out.append("tail\n")
        out.flush()
        try handle.close()
        let written = try #require(FileManager.default.contents(atPath: path))
        #expect(Array(written) == large + Array("tail\n".utf8))
        #expect(out.failure == nil)
    }
}
