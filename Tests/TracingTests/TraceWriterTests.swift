import Board
import CommandSupport
import Foundation
import RunEvents
import RunFormats
import Testing
import TextKit
import Tracing

#if canImport(Glibc)
    import Glibc
#endif

/// The trace writer on a recording's events, writing into memory: the
/// bytes of each format, the report, and the status it returns.
@Suite struct TraceWriterTests {
    static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let libraryRecordings = here.deletingLastPathComponent().appendingPathComponent("BoardTests/Recordings")

    static func recording(_ url: URL) throws -> Recording {
        try RecordingDecoder.decode(Array(try Data(contentsOf: url)))
    }

    static func snapshot(_ name: String) throws -> String {
        try String(contentsOf: here.appendingPathComponent("Snapshots/\(name)"), encoding: .utf8)
    }

    /// What a trace wrote: standard output, standard error, the status.
    struct Written {
        var output: String
        var errors: String
        var status: CommandSupport.ExitStatus
    }

    /// Traces `recording` in `format`, its events in batches of `batch`;
    /// `stoppedAfter`: a signal (SIGINT) stops it after that many events.
    static func trace(
        _ recording: Recording, _ format: TraceFormat, batch: Int = 3, stoppedAfter: Int? = nil,
        failing: Int32? = nil
    ) -> Written {
        let sink = MemorySink(failing: failing)
        let errors = MemorySink()
        let writer = TraceWriter(
            scenario: recording.scenario, format: format, header: recording.header,
            output: TraceOutput(sink: sink, flushAt: 64), messages: MessagePrinter { errors.write($0) })
        let events = stoppedAfter.map { Array(recording.events.prefix($0)) } ?? recording.events
        var rest = events[...]
        while !rest.isEmpty {
            writer.read(Array(rest.prefix(batch)))
            rest = rest.dropFirst(batch)
        }
        let status =
            stoppedAfter == nil ? writer.finish() : writer.interrupt("SIGINT", status: .stopped(signal: SIGINT))
        return Written(output: sink.text, errors: errors.text, status: status)
    }

    @Test(arguments: [TraceFormat.text, .jsonl, .chrome, .timeline])
    func aRecordingIsWrittenAsTheCommandWritesIt(_ format: TraceFormat) throws {
        let chain = try Self.recording(Self.libraryRecordings.appendingPathComponent("01-chain.jsonl"))
        let written = Self.trace(chain, format)
        #expect(written.output == (try Self.snapshot("01-chain.\(format.rawValue)")))
        // With jsonl and chrome the report goes to standard error.
        #expect(written.errors == (try Self.snapshot("01-chain.\(format.rawValue).stderr")))
        #expect(written.status == .success)
    }

    @Test func aFailedExpectationIsReportedAndEndsWithStatusOne() throws {
        let fail = try Self.recording(Self.here.appendingPathComponent("Snapshots/fail.jsonl"))
        let written = Self.trace(fail, .text, batch: 100)
        #expect(written.output == (try Self.snapshot("fail.text")))
        #expect(written.output.contains("✗ expect b before a"))
        #expect(written.errors == "")
        #expect(written.status == .failed)
    }

    @Test func aRunThatDidNotEndEndsWithStatusOne() throws {
        var chain = try Self.recording(Self.libraryRecordings.appendingPathComponent("01-chain.jsonl"))
        chain.events.removeLast()
        let written = Self.trace(chain, .text)
        #expect(written.output.hasSuffix("\nrun did not end\nexpectations:\n") == false)
        #expect(written.output.contains("\nrun did not end\n"))
        #expect(written.status == .failed)
    }

    @Test func aFailedWriteIsOneErrorLineAndStatusOne() throws {
        let chain = try Self.recording(Self.libraryRecordings.appendingPathComponent("01-chain.jsonl"))
        let written = Self.trace(chain, .text, failing: ENOSPC)
        #expect(written.output == "")
        #expect(
            written.errors == "opscope: error: could not write the trace to standard output: No space left on device\n")
        #expect(written.status == .failed)
    }

    @Test func aSignalEndsTheTextWithWhatWasWrittenAndTheSignalsStatus() throws {
        let chain = try Self.recording(Self.libraryRecordings.appendingPathComponent("01-chain.jsonl"))
        let written = Self.trace(chain, .text, stoppedAfter: 5)
        let last = try #require(chain.events.prefix(5).last)
        #expect(
            written.output.hasSuffix(
                "\nrun stopped by SIGINT (its last notification at \(Spelling.seconds(last.time))): it did not end, "
                    + "and its expectations were not judged\n"))
        #expect(written.output.split(separator: "\n").count == 1 + 5 + 1)
        #expect(written.errors == "")
        #expect(written.status == .stopped(signal: SIGINT))
        #expect(written.status.code == 130)
    }

    @Test func aSignalLeavesJSONLinesPureAndSaysSoOnStandardError() throws {
        let chain = try Self.recording(Self.libraryRecordings.appendingPathComponent("01-chain.jsonl"))
        let written = Self.trace(chain, .jsonl, stoppedAfter: 5)
        let lines = written.output.split(separator: "\n")
        #expect(lines.count == 1 + 5)
        #expect(lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
        #expect(written.errors.hasPrefix("opscope: trace stopped by SIGINT (its last notification at "))
        #expect(written.errors.hasSuffix("): the notifications so far were written; the run did not end\n"))
        #expect(written.status == .stopped(signal: SIGINT))
    }
}
