import EventFixtures
import Foundation
import RunEvents
import RunFormats
import ScenarioKit
import Testing

/// A recording read a line at a time, as a board reads the child that runs
/// the user's classes, is the recording read whole: the same header, the
/// same events, and the same first problem, after which nothing is read.
@Suite("reading a recording as it is written")
struct RecordingStreamTests {
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init).filter {
            !$0.isEmpty
        }
    }

    @Test func lineByLineIsTheWholeReading() throws {
        let bytes = RecordingFixture.recording(RecordingFixture.events)
        let whole = try #require(RecordingFixture.decode(bytes))
        var stream = RecordingStream()
        var events: [LifecycleEvent] = []
        for line in Self.lines(bytes) {
            if let event = try stream.read(line) { events.append(event) }
        }
        #expect(stream.header?.source == whole.header.source)
        #expect(stream.scenario == whole.scenario)
        #expect(events == whole.events)
        #expect(stream.problem == nil)
    }

    @Test func theFirstLineThatCannotBeReadEndsTheStream() throws {
        var lines = Self.lines(RecordingFixture.recording(RecordingFixture.events))
        // The fourth event goes back in time, past the third's seq.
        lines.remove(at: 3)
        lines.insert(lines[1], at: 3)
        var stream = RecordingStream()
        var read = 0
        var problem: RecordingProblem?
        for line in lines {
            do {
                if try stream.read(line) != nil { read += 1 }
            } catch {
                problem = problem ?? error
            }
        }
        let first = try #require(problem)
        #expect(first.line == 4, "\(first)")
        #expect(first.message.contains("seq"), "\(first)")
        #expect(read == 2, "what came before it stays")
        #expect(stream.problem == first, "and every later line is refused with it")
    }

    @Test func aFirstLineThatIsNoHeaderIsSaidSo() {
        var stream = RecordingStream()
        #expect(throws: RecordingProblem.self) { try stream.read(Array("hello".utf8)) }
        #expect(stream.problem?.message.contains("header") == true)
    }
}
