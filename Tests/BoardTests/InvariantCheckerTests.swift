import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// net (cap 2): fetch, parse after fetch, a, b, c, d; disk (serial): w1,
/// the barrier flush, w2; ui (main): m1, m2.
private let scenario = makeScenario(
    queues: [
        QueueSpec(name: "net", cap: .limit(2)), QueueSpec(name: "disk", cap: .limit(1)),
        QueueSpec(name: "ui", isMain: true),
    ],
    ops: [
        op("fetch", on: "net"), op("parse", on: "net", after: ["fetch"]),
        op("a", on: "net"), op("b", on: "net"), op("c", on: "net"), op("d", on: "net"),
        op("w1", on: "disk"), op("flush", on: "disk", body: .barrier(.zero)), op("w2", on: "disk"),
        op("m1", on: "ui"), op("m2", on: "ui"),
    ])

extension Script {
    /// The end of a run that added only some of the shared scenario's
    /// operations: stalled, naming the unfinished ones (a completed end
    /// comes only once every operation finished).
    fileprivate mutating func endLeavingTheRest() {
        let finished = Set(
            events.compactMap { event -> OperationID? in
                guard case .operation(let op, .isFinished, _, .bool(true)) = event.kind else { return nil }
                return op
            })
        let unfinished = scenario.operations.indices.map(OperationID.init).filter { !finished.contains($0) }
        end(.stalled(Dictionary(uniqueKeysWithValues: unfinished.map { ($0, StuckReason.unknown) })))
    }
}

private func messages(_ build: (inout Script) -> Void) -> [String] {
    var s = Script(scenario)
    build(&s)
    return InvariantChecker.check(s.events, scenario: scenario).map(\.message)
}

/// fetch then parse, the way a correct engine reports it.
private func fetchThenParse(_ s: inout Script) {
    s.cap("net", 2)
    s.add("fetch")
    s.add("parse", ready: false)
    s.run("fetch", from: 0.001, to: 1.2)
    s.ready("parse")
    s.run("parse", from: 1.201, to: 1.6)
}

@Test func aCleanStreamHasNoViolations() {
    // A completed end comes once every operation finished: a scenario of
    // the two alone.
    let two = makeScenario(
        queues: [QueueSpec(name: "net", cap: .limit(2))],
        ops: [op("fetch", on: "net"), op("parse", on: "net", after: ["fetch"])])
    var s = Script(two)
    fetchThenParse(&s)
    s.completion("fetch")
    s.end()
    #expect(InvariantChecker.check(s.events, scenario: two) == [])
}

/// Foundation makes an operation depend on the barriers of its queue not
/// yet dispatched; one added once its barrier was dispatched is dispatched
/// too and waits behind it on the dispatch queue (ENGINE-NOTES).
@Test func workAddedBehindADispatchedBarrierMayBeDispatchedAtOnce() {
    let found = messages { s in
        s.cap("disk", 2, old: 1)
        s.add("w1")
        s.add("flush", ready: false)
        s.run("w1", from: 0, to: 0.1)
        s.ready("flush")
        s.start("flush")
        s.add("w2")
        s.dispatch("w2")
        s.at(0.2)
        s.finish("flush")
        s.run("w2", from: 0.2, to: 0.3)
        s.endLeavingTheRest()
    }
    #expect(found == [])
}

@Test func aCancelledDependentMayBecomeReadyAtOnce() {
    let found = messages { s in
        s.add("fetch")
        s.add("parse", ready: false)
        s.skip("parse")
        s.run("fetch", from: 0, to: 1)
        s.endLeavingTheRest()
    }
    #expect(found == [])
}

@Test func loweringTheCapDoesNotStopRunningOperations() {
    let found = messages { s in
        s.cap("net", 4, old: 2)
        for name in ["a", "b", "c", "d"] { s.add(name) }
        s.start("a")
        s.start("b")
        s.start("c")
        s.cap("net", 1, old: 4)
        s.finish("a")
        s.start("d")  // allowed: max(1, 4 − 1) = 3, and 3 run
        for name in ["b", "c", "d"] { s.finish(name) }
    }
    #expect(found == [])
}

/// What was dispatched before the cap was lowered still starts once a
/// thread is free, above the new cap; what was dispatched before a
/// suspension starts while the queue is suspended.
@Test func dispatchesAreNeverTakenBack() {
    let found = messages { s in
        s.cap("net", 4, old: 2)
        for name in ["a", "b", "c", "d", "fetch"] { s.add(name) }
        s.start("a")
        s.start("b")
        s.dispatch("c")
        s.dispatch("d")
        s.cap("net", 1, old: 4)
        s.suspended("net", true)
        s.start("c")
        s.start("d")
        for name in ["a", "b", "c", "d"] { s.finish(name) }
        s.suspended("net", false)
        s.start("fetch")
        s.finish("fetch")
        s.endLeavingTheRest()
    }
    #expect(found == [])
}

/// A stream recorded before dispatches were announced (format 1) is
/// checked without the rules that need them.
@Test func aStreamWithoutDispatchesIsCheckedByItsStarts() {
    var s = Script(scenario)
    s.add("a")
    s.set("a", .isExecuting, true)
    s.set("a", .isExecuting, false)
    s.set("a", .isFinished, true)
    s.add("b")
    s.cancel("b")
    s.set("b", .isFinished, true)
    s.endLeavingTheRest()
    #expect(InvariantChecker.check(s.events, scenario: scenario, observesDispatch: false) == [])
    #expect(InvariantChecker.check(s.events, scenario: scenario).count == 2)
}

@Test func aBarrierWaitingForEarlierWorkIsClean() {
    let found = messages { s in
        s.add("w1")
        s.add("flush", ready: false)
        s.add("w2", ready: false)
        s.run("w1", from: 0, to: 1)
        s.ready("flush")
        s.run("flush", from: 1, to: 1)
        s.ready("w2")
        s.run("w2", from: 1, to: 2)
        s.endLeavingTheRest()
    }
    #expect(found == [])
}

@Test(arguments: violationCases)
func eachViolationIsFoundAndNamed(_ c: ViolationCase) {
    #expect(messages(c.build) == c.expected)
}

@Test func aViolationCarriesTheSeqOfItsEvent() {
    var s = Script(scenario)
    s.add("fetch")
    s.add("parse", ready: false)
    s.ready("parse")
    let found = InvariantChecker.check(s.events, scenario: scenario)
    #expect(found.map(\.seq) == [3])
    #expect(found.first?.description == "seq 3: parse became ready before its dependency fetch finished")
}
