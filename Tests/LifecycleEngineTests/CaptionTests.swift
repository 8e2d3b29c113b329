import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// Captions in the stream: an `at` caption at its time, after the `at`
/// actions of the same time; a `when` caption right after the event of its
/// moment; in lesson mode, scenario time pauses there.
@Suite("captions in the stream")
struct CaptionTests {
    static func captionSeqs(_ events: [LifecycleEvent]) -> [(index: Int, seq: Int, paused: Bool)] {
        events.compactMap { e in
            if case .caption(let index, let paused) = e.kind { return (index, e.seq, paused) }
            return nil
        }
    }

    @Test("an at caption comes after the at actions of its time; a when caption follows its moment")
    func order() async {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(1), suspended: true)
        let a = b.work("a", on: q, ms: 50)
        b.at(100, .resume(q))
        var scenario = b.scenario
        // The caption on line 1, the resume on line 2: the resume goes first.
        scenario.actions[0].location = SourceLocation(line: 2, column: 1)
        scenario.captions = [
            Caption(
                trigger: .at(.milliseconds(100)), text: "after the resume",
                location: SourceLocation(line: 1, column: 1)),
            Caption(trigger: .when(a, .starts), text: "a starts", location: SourceLocation(line: 3, column: 1)),
            Caption(trigger: .when(a, .finishes), text: "a finishes", location: SourceLocation(line: 4, column: 1)),
            Caption(
                trigger: .at(.seconds(500)), text: "never: the run is over",
                location: SourceLocation(line: 5, column: 1)),
        ]
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 4))
        run.start()
        let events = await run.ended(timeout: 20)
        run.stop()
        #expect(events.last?.kind == .end(.completed), "a caption to come does not keep the run going")
        // The resume lets a start, whose caption may come before the one
        // of the resume's moment: each is checked where it belongs.
        let captions = Self.captionSeqs(events).sorted { $0.index < $1.index }
        #expect(captions.map(\.index) == [0, 1, 2])
        let resume = events.first { if case .action(.resume, _, _) = $0.kind { return true } else { return false } }
        let started = events.first { $0.kind == .operation(a, .isExecuting, old: .bool(false), new: .bool(true)) }
        let finished = events.first { $0.kind == .operation(a, .isFinished, old: .bool(false), new: .bool(true)) }
        if let resume, let started, let finished, captions.count == 3 {
            #expect(captions[0].seq > resume.seq)
            #expect(captions[1].seq == started.seq + 1)
            #expect(captions[2].seq == finished.seq + 1)
        } else {
            Issue.record("missing events: \(events)")
        }
        expectCleanStream(events, scenario)
    }

    @Test("lesson mode: a caption pauses scenario time, the work holds, resume goes on")
    func lessonPause() async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let a = b.work("a", on: q, ms: 200)
        var scenario = b.scenario
        scenario.captions = [Caption(trigger: .when(a, .starts), text: "a starts")]
        let clock = SkippableClock()
        let run = ScenarioRun(
            scenario: scenario, options: RunOptions(speed: 4, pausesAtCaptions: true), realTime: clock.now)
        run.start()
        var events: [LifecycleEvent] = []
        let deadline = Date().addingTimeInterval(10)
        while Self.captionSeqs(events).isEmpty && Date() < deadline {
            try? await Task.sleep(for: .milliseconds(10))
            events = run.events
        }
        #expect(Self.captionSeqs(events).first?.paused == true)
        #expect(run.isPaused)
        let held = run.now
        // A minute of real time in an instant: the caption's pause holds.
        clock.skip(seconds: 60)
        #expect(run.now == held)
        #expect(!run.events.contains { $0.kind == .operation(a, .isFinished, old: .bool(false), new: .bool(true)) })
        run.resume()
        let all = await run.ended(timeout: 20)
        run.stop()
        #expect(all.last?.kind == .end(.completed))
        expectCleanStream(all, scenario)
    }
}
