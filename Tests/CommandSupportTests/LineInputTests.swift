import Dispatch
import Foundation
import Testing

@testable import CommandSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Lines read a byte at a time from a descriptor, and a stop request that
/// ends the wait for one, whatever the input does meanwhile.
@Suite struct LineInputTests {
    /// A pipe: (read end, write end).
    static func pipeEnds() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    static func write(_ text: String, to fd: Int32) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
    }

    @Test func linesThenTheEnd() throws {
        let (readEnd, writeEnd) = try Self.pipeEnds()
        defer { close(readEnd) }
        Self.write("fetch, save\r\n\nlast", to: writeEnd)
        close(writeEnd)
        let stop = StopRequest()
        #expect(LineInput.readLine(from: readEnd, stop: stop) == .line("fetch, save"))
        #expect(LineInput.readLine(from: readEnd, stop: stop) == .line(""))
        #expect(LineInput.readLine(from: readEnd, stop: stop) == .line("last"))
        #expect(LineInput.readLine(from: readEnd, stop: stop) == .end)
    }

    @Test("nothing past the line is taken: the next reader of the descriptor gets it")
    func nothingPastTheLine() throws {
        let (readEnd, writeEnd) = try Self.pipeEnds()
        defer { close(readEnd) }
        Self.write("one\ntwo\n", to: writeEnd)
        close(writeEnd)
        #expect(LineInput.readLine(from: readEnd, stop: StopRequest()) == .line("one"))
        var rest = [UInt8](repeating: 0, count: 16)
        #expect(read(readEnd, &rest, 16) == 4)
        #expect(Array(rest.prefix(4)) == Array("two\n".utf8))
    }

    @Test("a stop ends a wait on a pipe that stays open, with the signal's status")
    func aStopEndsTheWait() throws {
        let (readEnd, writeEnd) = try Self.pipeEnds()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        // Half a line is there: the stop still wins, the line never comes.
        Self.write("fet", to: writeEnd)
        let stop = StopRequest()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { stop.request(signal: SIGQUIT) }
        #expect(LineInput.readLine(from: readEnd, stop: stop) == .stopped(.stopped(signal: SIGQUIT)))
        // The first request stays, and a read after it does not wait.
        stop.request(signal: SIGINT)
        Self.write("ch\n", to: writeEnd)
        #expect(LineInput.readLine(from: readEnd, stop: stop) == .stopped(.stopped(signal: SIGQUIT)))
        #expect(stop.status?.code == 131)
    }
}
