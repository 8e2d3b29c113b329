import Board
import Testing

@testable import Practice

/// `TimedModel`, without running anything: the engine's rules for
/// asynchronous operations at nominal moments (each one also confirmed by
/// the generated questions' runs on the real engine), and the orders it
/// tries where things share a moment.
@Suite("the timed model")
struct TimedModelTests {
    static let g = TimedModel.grid

    static func model(
        caps: [Int], _ ops: [TimedModel.Op], _ actions: [TimedModel.Action] = []
    ) -> TimedModel {
        TimedModel(
            queues: caps.enumerated().map { TimedModel.Queue(name: "q\($0.offset)", cap: $0.element) }, ops: ops,
            actions: actions)
    }

    static func op(_ name: String, on queue: Int = 0, grids: Int, after: [Int] = []) -> TimedModel.Op {
        TimedModel.Op(name: name, queue: queue, length: grids * g, after: after)
    }

    /// The one way the run goes (every order agreeing).
    static func run(_ model: TimedModel) throws -> TimedModel.Run {
        let runs = try #require(model.runs())
        let first = try #require(runs.first)
        #expect(runs.allSatisfy { $0.lives == first.lives })
        return first
    }

    @Test("a queue starts what it can at once, the rest as slots free, the highest bucket first")
    func capAndBuckets() throws {
        var late = Self.op("late", grids: 1)
        late.priority = .high
        let run = try Self.run(Self.model(caps: [1], [Self.op("a", grids: 2), Self.op("b", grids: 1), late]))
        #expect(run.lives.map(\.started) == [0, 3 * Self.g, 2 * Self.g])
        #expect(run.lives[2].column(at: Self.g) == .ready)
        #expect(run.lives[0].column(at: 3 * Self.g) == .finished)
    }

    @Test("a cancel while it runs finishes it at once, cancelled, and releases what waits for it")
    func cancelInFlight() throws {
        let model = Self.model(
            caps: [2], [Self.op("a", grids: 4), Self.op("b", grids: 1, after: [0])],
            [TimedModel.Action(at: 2 * Self.g, act: .cancel(0))])
        let run = try Self.run(model)
        #expect(run.lives[0].finished == 2 * Self.g && run.lives[0].finalState == .cancelled)
        #expect(run.lives[1].started == 2 * Self.g && run.lives[1].finalState == .finished)
    }

    @Test("one that ignores the cancel runs to its end, still cancelled; one that never finishes stays executing")
    func ignoredOrForgotten() throws {
        var ignores = Self.op("ignores", grids: 3)
        ignores.ignoresCancel = true
        var never = Self.op("never", grids: 1)
        never.ending = .never
        var forgets = Self.op("forgets", grids: 3)
        forgets.ending = .neverIfCancelled
        let cancels = [(0, 1), (2, 2), (1, 3)].map { TimedModel.Action(at: $1 * Self.g, act: .cancel($0)) }
        let run = try Self.run(Self.model(caps: [3], [ignores, never, forgets], cancels))
        #expect(run.lives[0].finished == 3 * Self.g && run.lives[0].finalState == .cancelled)
        #expect(run.lives[1].finished == nil && run.lives[1].finalState == .stuck)
        #expect(run.lives[1].column(at: 2 * Self.g) == .executing)
        #expect(run.lives[2].finished == 2 * Self.g && run.lives[2].finalState == .cancelled, "it had started")
        #expect(run.stalls)
    }

    @Test("cancelled before it starts: skipped when its queue gets to it; stranded in Executing if it forgets")
    func cancelBeforeStart() throws {
        var forgets = Self.op("forgets", grids: 1)
        forgets.ending = .neverIfCancelled
        let model = Self.model(
            caps: [1], [Self.op("first", grids: 3), Self.op("skipped", grids: 1), forgets, Self.op("last", grids: 1)],
            [
                TimedModel.Action(at: Self.g, act: .cancel(1)), TimedModel.Action(at: 2 * Self.g, act: .cancel(2)),
            ])
        let run = try Self.run(model)
        #expect(run.lives[1].finalState == .skipped && run.lives[1].finished == 3 * Self.g)
        #expect(run.lives[2].finalState == .skipped && run.lives[2].stranded == 3 * Self.g)
        #expect(run.lives[2].column(at: 4 * Self.g) == .executing, "its queue counts it as running for good")
        #expect(run.lives[3].started == nil && run.lives[3].finalState == .stuck, "the serial queue's slot is held")
    }

    @Test("a cancel after the finish does nothing")
    func cancelAfterFinish() throws {
        let run = try Self.run(
            Self.model(caps: [1], [Self.op("a", grids: 1)], [TimedModel.Action(at: 2 * Self.g, act: .cancel(0))]))
        #expect(run.lives[0].finalState == .finished)
        #expect(run.acted == [false])
    }

    @Test("suspended mid-run: what runs goes on, nothing more starts until the resume; a cap lowered stops nothing")
    func suspendAndCap() throws {
        let model = Self.model(
            caps: [2],
            [Self.op("a", grids: 2), Self.op("b", grids: 3), Self.op("c", grids: 1), Self.op("d", grids: 1)],
            [
                TimedModel.Action(at: Self.g, act: .suspend(0)), TimedModel.Action(at: 2 * Self.g, act: .setCap(0, 1)),
                TimedModel.Action(at: 4 * Self.g, act: .resume(0)),
            ])
        let run = try Self.run(model)
        #expect(run.lives.map(\.started) == [0, 0, 4 * Self.g, 5 * Self.g])
        #expect(run.lives[1].finished == 3 * Self.g)
    }

    @Test("two releases onto a queue with one free slot: either may take it, and the model tries both")
    func releasesInEveryOrder() throws {
        // a releases b and c onto q1, which has one slot: which one starts is the order of a Set.
        let model = Self.model(
            caps: [1, 1],
            [
                Self.op("a", grids: 1), Self.op("b", on: 1, grids: 1, after: [0]),
                Self.op("c", on: 1, grids: 2, after: [0]),
            ])
        let runs = try #require(model.runs())
        #expect(runs.count == 2)
        #expect(Set(runs.map { $0.lives[1].started }) == [Self.g, 3 * Self.g], "b first, or after c")
        #expect(TimedPlan(model: model).run() == nil, "a question is asked only when every order agrees")
    }

    @Test("two timers at one moment are tried in either order; kept when both give the same run")
    func timersTogether() throws {
        let apart = Self.model(caps: [3], [Self.op("a", grids: 1), Self.op("b", grids: 1), Self.op("c", grids: 2)])
        #expect(try #require(apart.runs()).count == 2)
        #expect(TimedPlan(model: apart).run() != nil)
        // c takes the slot a or b frees, whichever ends first: the same moments,
        // but not the same story (which one it waited for), so not asked.
        let shared = Self.model(caps: [2], [Self.op("a", grids: 1), Self.op("b", grids: 1), Self.op("c", grids: 1)])
        #expect(try #require(shared.runs()).count == 2)
        #expect(TimedPlan(model: shared).run() == nil)
    }

    @Test("a skipped operation that others wait for is not followed: its queue's start() races its releases")
    func skippedReleasesRefused() {
        let model = Self.model(
            caps: [1], [Self.op("a", grids: 2), Self.op("b", grids: 1), Self.op("c", grids: 1, after: [1])],
            [TimedModel.Action(at: Self.g, act: .cancel(1))])
        #expect(model.runs() == nil)
    }

    @Test("two actions at one moment are not followed: the second may find the first's dispatch still starting")
    func actionsApart() {
        // Cancelling a frees a slot for b, whose start() runs on a thread of
        // the pool: the cancel of b right after may come before it, or after.
        var b = Self.op("b", grids: 1)
        b.ending = .neverIfCancelled
        let together = Self.model(
            caps: [1], [Self.op("a", grids: 2), b],
            [TimedModel.Action(at: Self.g, act: .cancel(0)), TimedModel.Action(at: Self.g, act: .cancel(1))])
        #expect(together.runs() == nil)
        var apart = together
        apart.actions[1].at = 2 * Self.g
        #expect(apart.runs() != nil)
    }

    @Test("a run past the horizon is not followed; one that stalls must end earlier still")
    func horizon() {
        let long = Self.model(caps: [1], [Self.op("a", grids: 4), Self.op("b", grids: 3)])
        #expect(long.runs() == nil)
        var never = Self.op("n", grids: 1)
        never.ending = .never
        let stalls = Self.model(caps: [2], [Self.op("a", grids: 4), never])
        #expect(stalls.runs() == nil, "it ends at 3.2s, and the engine takes 200 ms of real time more to call a stall")
        let shorter = Self.model(caps: [2], [Self.op("a", grids: 3), never])
        #expect(shorter.runs() != nil)
    }
}
