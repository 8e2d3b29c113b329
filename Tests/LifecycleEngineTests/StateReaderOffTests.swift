import Board
import RunEvents
import ScenarioKit
import Testing

@testable import LifecycleEngine

/// The run without its state reader (`RunOptions.stateReader` nil: turned
/// off, or not trustworthy on this Foundation): no moment of dispatch is
/// observed, so each `dispatched` comes at its operation's start, and the
/// captions that speak of a dispatch are withheld. The model's rules, fed
/// facts as `RunModelTests` feeds them; then the real engine.
@Suite struct StateReaderOffTests {
    static let ms = RunModelTests.ms

    static func model(_ scenario: Scenario, lesson: Bool = false) -> RunModel {
        var model = RunModel(scenario: scenario, options: RunOptions(pausesAtCaptions: lesson, stateReader: nil))
        _ = model.start(real: ms(0))
        return model
    }

    @Test func aCaptionIsAboutADispatchWhenItSaysTheWordOrDrawsTheMark() {
        func claims(_ text: String) -> Bool { Caption(trigger: .at(.zero), text: text).claimsDispatches }
        #expect(claims("the queue dispatched four"))
        #expect(claims("Dispatching stops while it is suspended"))
        #expect(claims("▒ waits for a thread"))
        #expect(!claims("fetch runs alone"))
        #expect(!claims("two run, the cap"))
    }

    @Test func withoutTheReaderEachDispatchIsAnnouncedAtItsStart() {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(2))
        for name in ["a", "b", "c"] { b.work(name, on: q, ms: 100) }
        var m = Self.model(b.scenario)
        #expect(!m.observesDispatches)
        for i in 0..<3 { m.add(i, real: Self.ms(0)) }
        // The shell makes no look (it has no reader): nothing is dispatched
        // until a start is seen.
        #expect(!RunModelTests.lines(m).contains { $0.hasSuffix("dispatched") })
        let before = m.log.events.count
        m.begin(1, thread: 1, real: Self.ms(5))
        #expect(RunModelTests.lines(m, from: before) == ["b dispatched", "b isExecuting bool(true)"])
        let start = m.log.events[before...].map(\.time)
        #expect(start.allSatisfy { RunModelTests.same($0, 0.005) }, "the dispatch at the start's own moment")
        // The board shows no operation waiting for a thread: none was seen.
        let board = BoardState(scenario: b.scenario, replaying: m.log.events)
        let waiting = board.cards.filter(\.isWaitingForThread)
        #expect(waiting.isEmpty)
        #expect(board[queue: QueueID(0)].executing == 1)
        m.begin(0, thread: 2, real: Self.ms(6))
        m.finish(1, real: Self.ms(105))
        m.begin(2, thread: 1, real: Self.ms(106))
        m.finish(0, real: Self.ms(106))
        m.finish(2, real: Self.ms(206))
        #expect(RunModelTests.lines(m).last == "end completed")
        let dispatches = RunModelTests.lines(m).filter { $0.hasSuffix("dispatched") }
        #expect(dispatches == ["b dispatched", "a dispatched", "c dispatched"])
        #expect(InvariantChecker.check(m.log.events, scenario: b.scenario).isEmpty)
    }

    @Test func withoutTheReaderTheCaptionsAboutADispatchAreWithheld() {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        let a = b.work("a", on: q, ms: 100)
        var scenario = b.scenario
        scenario.captions = [
            Caption(trigger: .at(.milliseconds(0)), text: "the queue dispatched a"),
            Caption(trigger: .at(.milliseconds(0)), text: "a runs"),
            Caption(trigger: .when(a, .starts), text: "a ▒ no more"),
            Caption(trigger: .when(a, .starts), text: "a starts"),
        ]
        var off = Self.model(scenario, lesson: true)
        #expect(off.nextScheduled()?.item == .caption(1), "the timed one about a dispatch is not scheduled")
        off.take(.caption(1))
        #expect(off.nextScheduled() == nil)
        off.add(0, real: Self.ms(0))
        off.begin(0, thread: 1, real: Self.ms(1))
        #expect(RunModelTests.lines(off).filter { $0.hasPrefix("caption") } == ["caption 3 paused"])

        // With a reader, all four are announced.
        var on = RunModel(scenario: scenario, options: RunOptions(stateReader: EngineState.shared))
        _ = on.start(real: Self.ms(0))
        #expect(on.observesDispatches == (EngineState.shared != nil))
        #expect(on.nextScheduled()?.item == .caption(0))
    }

    /// The real engine without the reader: every dispatch comes just before
    /// its start, and the stream passes both invariant checkers.
    @Test func theRealEngineWithoutTheReaderDispatchesAtEachStart() async throws {
        var b = ScenarioBuilder()
        let q = b.queue("q", cap: .limit(4))
        for i in 1...6 { b.work("w\(i)", on: q, ms: 400) }
        let s = await runChecked(scenario: b.scenario, speed: 4, stateReader: nil)
        #expect(s.outcome == RunOutcome.completed)
        for (index, event) in s.events.enumerated() {
            guard case .dispatched(let op) = event.kind else { continue }
            let next = try #require(s.events.dropFirst(index + 1).first)
            guard case .operation(op, .isExecuting, _, .bool(true)) = next.kind else {
                Issue.record("\(s.scenario[operation: op].name) dispatched, then \(next.kind), not its start")
                continue
            }
        }
    }
}
