import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// net (cap 2): a, b (after a), c, x (blocks 3 × 0.5s), z (instant async);
/// disk (serial): s, t; ui (main): m.
private let scenario = makeScenario(
    queues: [
        QueueSpec(name: "net", cap: .limit(2)), QueueSpec(name: "disk", cap: .limit(1)),
        QueueSpec(name: "ui", isMain: true),
    ],
    ops: [
        op("a", on: "net", work: 2), op("b", on: "net", after: ["a"]), op("c", on: "net"),
        op("x", on: "net", body: .blocks([.milliseconds(500), .milliseconds(500), .milliseconds(1000)])),
        op("z", on: "net", body: .async(.zero)),
        op("s", on: "disk"), op("t", on: "disk"), op("m", on: "ui"),
    ])
private let n = Names(scenario: scenario)

private func board(_ build: (inout Script) -> Void) -> BoardState {
    var s = Script(scenario)
    build(&s)
    return BoardState(scenario: scenario, replaying: s.events)
}

@Test func aCardWalksThroughEveryPhase() {
    var s = Script(scenario)
    var b = BoardState(scenario: scenario)
    var seen: [Phase] = [b[operation: n("a")].phase]
    let steps: [(inout Script) -> Void] = [
        { $0.add("a", ready: false) }, { $0.ready("a") }, { $0.start("a") }, { $0.finish("a") },
    ]
    for step in steps {
        let before = s.events.count
        step(&s)
        for event in s.events[before...] { b.apply(event) }
        seen.append(b[operation: n("a")].phase)
    }
    #expect(seen == [.notAdded, .pending, .ready, .executing, .finished])
    let card = b[operation: n("a")]
    #expect((card.isReady, card.isExecuting, card.isFinished, card.isCancelled) == (true, false, true, false))
    #expect(card.phaseSeq == s.events.last?.seq)
}

@Test func aCancelWhileExecutingKeepsTheCardExecutingThenEndsCancelled() {
    var s = Script(scenario)
    s.add("a")
    s.at(0.1)
    s.start("a")
    s.at(0.5)
    s.cancel("a")
    var b = BoardState(scenario: scenario, replaying: s.events)
    #expect(b[operation: n("a")].phase == .executing)
    #expect(b[operation: n("a")].cancelRequestedWhileExecuting)
    s.at(0.6)
    s.finish("a")
    b = BoardState(scenario: scenario, replaying: s.events)
    let card = b[operation: n("a")]
    #expect(card.phase == .cancelled)
    #expect(!card.wasSkipped)
    #expect((card.startedAt, card.finishedAt) == (0.1, 0.6))
}

@Test func aSkippedOperationEndsCancelledWithoutAStart() {
    let b = board { s in
        s.add("a")
        s.add("b", ready: false)
        s.at(0.3)
        s.skip("b")
    }
    let card = b[operation: n("b")]
    #expect(card.phase == .cancelled)
    #expect(card.wasSkipped)
    #expect(!card.cancelRequestedWhileExecuting)
    #expect(card.startedAt == nil && card.finishedAt == 0.3)
}

@Test func aCancelBeforeTheAddLeavesTheCardNotAdded() {
    let b = board { s in s.cancel("c") }
    #expect(b[operation: n("c")].phase == .notAdded)
    #expect(b[operation: n("c")].isCancelled)
}

@Test func queueRowsFollowTheirAnnouncements() {
    let b = board { s in
        s.cap("net", 3, old: -1)
        s.suspended("net", true)
        s.suspended("net", false)
        s.cap("ui", 4)
        for name in ["a", "c", "x"] { s.add(name) }
        s.count("net", 3)
        s.start("a")
        s.start("c")
        s.start("x")
        s.finish("c")
        s.cap("net", -1, old: 3)
        s.suspended("disk", true)
    }
    let net = b[queue: n.q("net")]
    #expect(net.cap == .systemDefault && net.limit == nil)
    #expect((net.executing, net.peak, net.operationCount, net.isSuspended) == (2, 3, 3, false))
    #expect(b[queue: n.q("disk")].isSuspended)
    #expect(b[queue: n.q("ui")].cap == .limit(1))
    #expect(b[queue: n.q("ui")].isMain)
}

@Test func aQueueRowStartsAsDeclared() {
    let declared = makeScenario(
        queues: [QueueSpec(name: "q", cap: .limit(3), startsSuspended: true)], ops: [op("a", on: "q")])
    let row = BoardState(scenario: declared)[queue: QueueID(0)]
    #expect((row.cap, row.isSuspended, row.executing, row.peak) == (.limit(3), true, 0, 0))
}

@Test func blocksCompletionTimeAndOutcomeAreRecorded() {
    let b = board { s in
        s.add("x")
        s.start("x")
        s.at(0.1)
        s.block("x", 0, .started, thread: 3)
        s.block("x", 0, .returned, thread: 3)
        s.block("x", 1, .started, thread: 3)
        s.at(0.7)
        s.completion("c", thread: 4)
        s.end(.stalled([n("x"): .neverPostedFinish]))
    }
    let x = b[operation: n("x")]
    #expect((x.blocksStarted, x.blocksReturned, x.thread) == (2, 1, ThreadTag(3)))
    #expect(b[operation: n("c")].completionRan && b[operation: n("c")].completionThread == ThreadTag(4))
    #expect(b.outcome == .stalled([n("x"): .neverPostedFinish]))
    #expect(b.lastEventTime == 0.7)
    #expect(b.lastSeq == 8, "the add, the dispatch, the start, three blocks, the completion, the end")
}

/// A log replayed gives the board its events say, however it is fed:
/// whole, or event by event as a live run feeds it.
@Test func replayingALogGivesTheBoardItsEventsSay() {
    var s = Script(scenario)
    s.cap("net", 2)
    s.add("a")
    s.add("b", ready: false)
    s.add("s")
    s.add("t")
    s.run("a", from: 0.1, to: 2)
    s.ready("b")
    s.run("s", from: 0.1, to: 1)
    s.priority("t", .high)
    s.at(2.5)
    s.end()
    let once = BoardState(scenario: scenario, replaying: s.events)
    var stepped = BoardState(scenario: scenario)
    for event in s.events { reduce(into: &stepped, event) }
    #expect(once == stepped)
    #expect(once.operations(in: .finished) == [n("a"), n("s")], "in the order they finished in the stream")
    #expect(once.operations(in: .ready) == [n("t"), n("b")])
    #expect(once[operation: n("a")].startedAt == 0.1 && once[operation: n("a")].finishedAt == 2)
    #expect(once[operation: n("t")].effectivePriority == .high)
    #expect(once[queue: n.q("net")].executing == 0 && once[queue: n.q("net")].cap == .limit(2))
    #expect(once.lastEventTime == 2.5 && once.outcome == .completed)
}

@Test func columnsListCardsInArrivalOrderThenFileOrder() {
    let b = board { s in
        s.add("c")
        s.add("a")
        s.add("s")
        s.add("b", ready: false)
        s.start("s")
        s.finish("s")
        s.start("c")
    }
    #expect(b.cards(in: .ready).map(\.name) == ["a"])
    #expect(b.cards(in: .executing).map(\.name) == ["c"])
    #expect(b.cards(in: .notAdded).map(\.name) == ["x", "z", "t", "m"])
    let counts = b.phaseCounts
    #expect(counts == [.notAdded: 4, .pending: 1, .ready: 1, .executing: 1, .finished: 1, .cancelled: 0])
    #expect(b.dependents(of: n("a")) == [n("b")])
    #expect(b.dependents(of: n("c")) == [])
}

struct ProgressCase: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let build: @Sendable (inout Script) -> Void
    let op: String
    let now: Double
    let expected: Double?
}

private let progressCases: [ProgressCase] = [
    ProgressCase(testDescription: "not started", build: { $0.add("a") }, op: "a", now: 1, expected: nil),
    ProgressCase(
        testDescription: "work, half done",
        build: {
            $0.add("a")
            $0.at(1)
            $0.start("a")
        }, op: "a", now: 2, expected: 0.5),
    ProgressCase(
        testDescription: "work, clamped at 1",
        build: {
            $0.add("a")
            $0.start("a")
        }, op: "a", now: 9, expected: 1),
    ProgressCase(
        testDescription: "work, clock before start clamps at 0",
        build: {
            $0.add("a")
            $0.at(1)
            $0.start("a")
        }, op: "a", now: 0.5, expected: 0),
    ProgressCase(
        testDescription: "blocks: one returned, half of the second",
        build: { s in
            s.add("x")
            s.start("x")
            s.block("x", 0, .started)
            s.at(0.5)
            s.block("x", 0, .returned)
            s.block("x", 1, .started)
        }, op: "x", now: 0.75, expected: 0.375),
    ProgressCase(
        testDescription: "instant work reads as done",
        build: {
            $0.add("z")
            $0.start("z")
        }, op: "z", now: 0, expected: 1),
    ProgressCase(
        testDescription: "finished: no bar",
        build: {
            $0.add("a")
            $0.run("a", from: 0, to: 2)
        }, op: "a", now: 3, expected: nil),
]

@Test(arguments: progressCases)
func progressIsTheFractionOfTheBodyDone(_ c: ProgressCase) {
    var s = Script(scenario)
    c.build(&s)
    let b = BoardState(scenario: scenario, replaying: s.events)
    #expect(b.progress(of: n(c.op), now: c.now) == c.expected)
}
