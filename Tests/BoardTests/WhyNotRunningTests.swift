import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// net (cap 2): a, b (after a), c, hi (priority high), fast (qos
/// userInitiated), slow (qos background); wide (default cap): w1, w2;
/// disk (serial): s, flush (barrier), t, q (qos userInitiated); ui (main): m1, m2.
private let scenario = makeScenario(
    queues: [
        QueueSpec(name: "net", cap: .limit(2)), QueueSpec(name: "wide"),
        QueueSpec(name: "disk", cap: .limit(1)), QueueSpec(name: "ui", isMain: true),
    ],
    ops: [
        op("a", on: "net"), op("b", on: "net", after: ["a"]), op("c", on: "net"),
        op("hi", on: "net", priority: .high), op("fast", on: "net", qos: .userInitiated),
        op("slow", on: "net", qos: .background),
        op("w1", on: "wide"), op("w2", on: "wide"),
        op("s", on: "disk"), op("flush", on: "disk", body: .barrier(.zero)), op("t", on: "disk"),
        op("q", on: "disk", qos: .userInitiated),
        op("m1", on: "ui"), op("m2", on: "ui"),
    ])
private let n = Names(scenario: scenario)

struct WhyCase: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let build: @Sendable (inout Script) -> Void
    let op: String
    let expected: @Sendable (Names) -> [NotRunningReason]
}

/// `s` runs; the barrier `flush` and `t` after it are both cancelled while they wait.
@Sendable private func cancelledBarrierBehindARunningOperation(_ s: inout Script) {
    s.add("s")
    s.add("flush", ready: false)
    s.add("t", ready: false)
    s.start("s")
    s.cancel("flush")
    s.ready("flush")
    s.cancel("t")
    s.ready("t")
}

private let whyCases: [WhyCase] = [
    WhyCase(testDescription: "not added", build: { _ in }, op: "a", expected: { _ in [.notAdded] }),
    WhyCase(
        testDescription: "a cancelled barrier waits for what runs before it to return",
        build: cancelledBarrierBehindARunningOperation, op: "flush",
        expected: { n in [.waitingFor([n("s")])] }),
    WhyCase(
        testDescription: "a cancelled operation added after an unfinished barrier runs after it",
        build: cancelledBarrierBehindARunningOperation, op: "t",
        expected: { n in [.waitingFor([n("flush")])] }),
    WhyCase(
        testDescription: "waiting for a dependency",
        build: {
            $0.add("a")
            $0.add("b", ready: false)
        }, op: "b",
        expected: { n in [.waitingFor([n("a")])] }),
    WhyCase(
        testDescription: "a cancelled dependent waits only for its queue",
        build: { s in
            s.add("a")
            s.add("c")
            s.start("a")
            s.start("c")
            s.add("b", ready: false)
            s.cancel("b")
            s.ready("b")
        }, op: "b",
        expected: { _ in [.queueAtCap(executing: 2, dispatched: 0, cap: .limit(2))] }),
    WhyCase(
        testDescription: "a barrier waits for what was added before it",
        build: {
            $0.add("s")
            $0.add("flush", ready: false)
            $0.add("t", ready: false)
        }, op: "flush",
        expected: { n in [.waitingFor([n("s")])] }),
    WhyCase(
        testDescription: "work added after a barrier waits for it",
        build: {
            $0.add("s")
            $0.add("flush", ready: false)
            $0.add("t", ready: false)
        }, op: "t",
        expected: { n in [.waitingFor([n("flush")])] }),
    WhyCase(
        testDescription: "queue suspended",
        build: {
            $0.suspended("net", true)
            $0.add("a")
        }, op: "a",
        expected: { n in [.queueSuspended(n.q("net"))] }),
    WhyCase(
        testDescription: "the main queue ignores suspension",
        build: {
            $0.suspended("ui", true)
            $0.add("m1")
            $0.dispatch("m1")
        }, op: "m1",
        expected: { _ in [.dispatchedWaitingForThread] }),
    WhyCase(
        testDescription: "dispatched while a barrier of its queue runs: it waits behind the barrier",
        build: { s in
            s.cap("disk", 2, old: 1)
            s.add("flush")
            s.start("flush")
            s.add("t")
            s.dispatch("t")
        }, op: "t",
        expected: { n in [.dispatchedBehindBarrier(n("flush"))] }),
    WhyCase(
        testDescription: "dispatched while its queue was at its cap and then suspended: only the dispatch is said",
        build: { s in
            for x in ["a", "c", "hi"] { s.add(x) }
            s.start("a")
            s.dispatch("c")
            s.suspended("net", true)
        }, op: "c",
        expected: { _ in [.dispatchedWaitingForThread] }),
    WhyCase(
        testDescription: "a dispatched operation waiting for a thread takes a slot",
        build: { s in
            for x in ["a", "c", "hi"] { s.add(x) }
            s.start("a")
            s.dispatch("c")
        }, op: "hi",
        expected: { _ in [.queueAtCap(executing: 1, dispatched: 1, cap: .limit(2))] }),
    WhyCase(
        testDescription: "ready with a free slot and no dispatch seen: no reason is claimed",
        build: { s in
            for x in ["a", "c", "hi"] { s.add(x) }
            s.start("a")
        }, op: "hi",
        expected: { _ in [] }),
    WhyCase(
        testDescription: "queue at its cap",
        build: { s in
            for x in ["a", "c", "hi"] { s.add(x) }
            s.start("a")
            s.start("c")
        }, op: "hi",
        expected: { _ in [.queueAtCap(executing: 2, dispatched: 0, cap: .limit(2))] }),
    WhyCase(
        testDescription: "suspended and at cap, behind an earlier one",
        build: { s in
            for x in ["a", "c", "hi", "fast"] { s.add(x) }
            s.start("a")
            s.start("hi")
            s.suspended("net", true)
        }, op: "c",
        expected: { n in
            [
                .queueSuspended(n.q("net")), .queueAtCap(executing: 2, dispatched: 0, cap: .limit(2)),
                .behindHigherPriority(count: 1, bucket: .normal, fromQoS: false),
            ]
        }),
    WhyCase(
        testDescription: "behind a higher explicit priority and a QoS bucket",
        build: { s in
            for x in ["a", "c", "hi", "fast"] { s.add(x) }
            s.start("a")
        }, op: "c",
        expected: { _ in [.behindHigherPriority(count: 2, bucket: .normal, fromQoS: false)] }),
    WhyCase(
        testDescription: "its own QoS bucket puts it behind",
        build: { s in
            for x in ["slow", "c"] { s.add(x) }
            s.start("a")
            s.start("b")
        }, op: "slow",
        expected: { _ in
            [
                .queueAtCap(executing: 2, dispatched: 0, cap: .limit(2)),
                .behindHigherPriority(count: 1, bucket: .veryLow, fromQoS: true),
            ]
        }),
    WhyCase(
        testDescription: "dispatched, no thread yet",
        build: { s in
            for x in ["a", "c", "hi"] { s.add(x) }
            s.start("a")
            s.dispatch("hi")
        }, op: "hi",
        expected: { _ in [.dispatchedWaitingForThread] }),
    WhyCase(
        testDescription: "the main queue is serial",
        build: { s in
            s.add("m1")
            s.add("m2")
            s.start("m1")
        }, op: "m2",
        expected: { _ in [.queueAtCap(executing: 1, dispatched: 0, cap: .limit(1))] }),
    WhyCase(
        testDescription: "executing: nothing to explain",
        build: {
            $0.add("a")
            $0.start("a")
        }, op: "a", expected: { _ in [] }),
    WhyCase(
        testDescription: "finished: nothing to explain",
        build: {
            $0.add("a")
            $0.run("a", from: 0, to: 1)
        }, op: "a", expected: { _ in [] }),
]

@Test(arguments: whyCases)
func whyNotRunningNamesEachReason(_ c: WhyCase) {
    var s = Script(scenario)
    c.build(&s)
    let board = BoardState(scenario: scenario, replaying: s.events)
    #expect(board.whyNotRunning(n(c.op)) == c.expected(n))
}

@Test func qosPicksTheBucketOnlyOffSerialQueues() {
    var s = Script(scenario)
    s.add("fast")
    s.add("q")
    s.add("hi")
    let board = BoardState(scenario: scenario, replaying: s.events)
    let fast = board[operation: n("fast")]
    #expect((fast.effectivePriority, fast.priorityFromQoS, fast.queuePriority) == (.high, true, nil))
    let q = board[operation: n("q")]
    #expect((q.effectivePriority, q.priorityFromQoS, q.priorityChangesLost) == (.normal, false, false))
    let hi = board[operation: n("hi")]
    #expect((hi.effectivePriority, hi.priorityFromQoS, hi.queuePriority) == (.high, false, .high))
}

@Test func aPriorityChangeMovesTheBucketUnlessItIsLost() {
    var s = Script(scenario)
    s.add("fast")
    s.add("q")
    s.priority("fast", .veryLow)
    s.priority("q", .veryHigh)
    let board = BoardState(scenario: scenario, replaying: s.events)
    let fast = board[operation: n("fast")]
    #expect((fast.effectivePriority, fast.priorityFromQoS, fast.queuePriority) == (.veryLow, false, .veryLow))
    let q = board[operation: n("q")]
    #expect((q.effectivePriority, q.queuePriority) == (.normal, .veryHigh))
}

@Test func aPriorityChangeBeforeTheAddCountsAsExplicit() {
    var s = Script(scenario)
    s.priority("q", .veryHigh)
    s.add("q")
    let board = BoardState(scenario: scenario, replaying: s.events)
    #expect(board[operation: n("q")].effectivePriority == .veryHigh)
    #expect(!board[operation: n("q")].priorityChangesLost)
}

/// Foundation's changePriority looks for an operation without an explicit
/// priority under its QoS bucket; on a serial queue it was filed under
/// normal, so only an operation with a non-default QoS loses the change.
@Test func onASerialQueueOnlyAQoSOperationLosesPriorityChanges() {
    var s = Script(scenario)
    s.add("t")
    s.add("q")
    s.priority("t", .veryHigh)
    s.priority("q", .veryHigh)
    let board = BoardState(scenario: scenario, replaying: s.events)
    let t = board[operation: n("t")]
    #expect(!t.priorityChangesLost)
    #expect(t.effectivePriority == .veryHigh)
    let q = board[operation: n("q")]
    #expect(q.priorityChangesLost)
    #expect(q.effectivePriority == .normal)
}

/// Foundation takes an operation out of its bucket and appends it to the
/// new one: set back, it is behind what was added after it.
@Test func aPriorityChangeSetBackPutsItAtTheEndOfItsBucket() {
    var s = Script(scenario)
    for x in ["a", "c", "hi"] { s.add(x) }
    s.priority("a", .low)
    s.priority("a", .normal, old: .low)
    let board = BoardState(scenario: scenario, replaying: s.events)
    let (a, c) = (board[operation: n("a")], board[operation: n("c")])
    #expect(a.effectivePriority == .normal)
    #expect(c.isAhead(of: a))
    #expect(!a.isAhead(of: c))
}

/// On a serial queue an operation with QoS userInitiated and no priority is
/// filed under normal; Foundation looks for it under high. A change to
/// high does nothing; a change to veryHigh is lost; a change from veryHigh
/// (now explicit) to low looks under veryHigh and is lost too, and only a
/// change from normal moves it.
@Test func lostPriorityChangesFollowFoundationsOwnBookkeeping() {
    var s = Script(scenario)
    s.add("q")
    s.priority("q", .veryHigh)
    var board = BoardState(scenario: scenario, replaying: s.events)
    #expect(
        (board[operation: n("q")].effectivePriority, board[operation: n("q")].priorityChangesLost) == (.normal, true))
    s.priority("q", .normal, old: .veryHigh)
    board = BoardState(scenario: scenario, replaying: s.events)
    #expect(
        (board[operation: n("q")].effectivePriority, board[operation: n("q")].priorityChangesLost) == (.normal, true))
    s.priority("q", .low, old: .normal)
    board = BoardState(scenario: scenario, replaying: s.events)
    #expect((board[operation: n("q")].effectivePriority, board[operation: n("q")].priorityChangesLost) == (.low, false))
}
