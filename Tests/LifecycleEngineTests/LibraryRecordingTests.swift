import Board
import EventFixtures
import Foundation
import LifecycleEngine
import RunEvents
import RunFormats
import ScenarioKit
import Testing
import TextKit

/// A library scenario's real run, written as a recording and read back, is
/// the run it was written from (the codec's own tests are RunFormatsTests').
@Suite("a library run's recording")
struct LibraryRecordingTests {
    @Test(
        "a library scenario's run, written and read back, is the same run, and its text timeline fits each width",
        arguments: Library.inProcess)
    func libraryRoundTrip(_ file: String) async throws {
        let path = Library.root.appendingPathComponent("scenarios/\(file)").path
        let text = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
        let scenario = try Library.scenario(file)
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 20))
        run.start()
        // A main-queue scenario may not end where the runner serves no main
        // queue: what it recorded is read back all the same.
        let events = await run.ended(timeout: 60)
        run.stop()
        #expect(!events.isEmpty)
        let header = JSONLineEncoder.Header(opscope: "0.1", language: 1, path: "scenarios/\(file)", source: text)
        let bytes = RecordingFixture.recording(events, of: scenario, header: header)
        guard let recording = RecordingFixture.decode(bytes) else { return }
        #expect(recording.problem == nil)
        #expect(recording.scenario == scenario)
        #expect(recording.header.path == "scenarios/\(file)")
        #expect(recording.header.source == text)
        #expect(recording.events.count == events.count)
        for (decoded, original) in zip(recording.events, events.map(RecordingFixture.toMillisecond))
        where decoded != original {
            Issue.record("seq \(original.seq): read back as \(decoded), written from \(original)")
            break
        }
        // `trace RUN.jsonl --format timeline --width N`: no line wider.
        let lanes = TimelineLanes(scenario: recording.scenario, events: recording.events)
        for width in [40, 41, 60, 100] {
            for line in TimelineText.render(lanes, width: width).split(separator: "\n")
            where displayWidth(String(line)) > width {
                Issue.record("\(file) at --width \(width): a line of \(displayWidth(String(line))) columns: \(line)")
            }
        }
    }
}
