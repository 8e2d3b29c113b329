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

struct ViolationCase: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let build: @Sendable (inout Script) -> Void
    let expected: [String]
}

private let violationCases: [ViolationCase] = [
    ViolationCase(
        testDescription: "dependent ready before its dependency finished",
        build: { s in
            s.add("fetch")
            s.add("parse", ready: false)
            s.ready("parse")
        },
        expected: ["parse became ready before its dependency fetch finished"]),
    ViolationCase(
        testDescription: "dependent added ready before its dependency finished",
        build: { s in
            s.add("fetch")
            s.add("parse", ready: true)
        },
        expected: ["parse became ready before its dependency fetch finished"]),
    ViolationCase(
        testDescription: "executing before its dependency finished",
        build: { s in
            s.add("fetch")
            s.add("parse", ready: false)
            s.start("fetch")
            s.start("parse")
        },
        expected: [
            "parse was dispatched before its dependency fetch finished",
            "parse started executing before its dependency fetch finished",
        ]),
    ViolationCase(
        testDescription: "cap exceeded",
        build: { s in
            for name in ["a", "b", "c"] { s.add(name) }
            for name in ["a", "b", "c"] { s.start(name) }
        },
        expected: ["queue net has 3 operations dispatched or executing (a, b and c), more than its cap allows (2)"]),
    ViolationCase(
        testDescription: "cap lowered, then a new start beyond the allowance",
        build: { s in
            s.cap("net", 4, old: 2)
            for name in ["a", "b", "c", "d", "fetch"] { s.add(name) }
            s.start("a")
            s.start("b")
            s.start("c")
            s.cap("net", 1, old: 4)
            s.finish("a")
            s.finish("b")
            s.start("d")  // allowed: max(1, 4 − 2) = 2
            s.start("fetch")
        },
        expected: [
            "queue net has 3 operations dispatched or executing (c, d and fetch), more than its cap allows (2)"
        ]),
    ViolationCase(
        testDescription: "the main queue is serial whatever its events say",
        build: { s in
            s.cap("ui", 4)
            s.add("m1")
            s.add("m2")
            s.start("m1")
            s.start("m2")
        },
        expected: ["queue ui has 2 operations dispatched or executing (m1 and m2), more than its cap allows (1)"]),
    ViolationCase(
        testDescription: "started twice",
        build: { s in
            s.add("a")
            s.start("a")
            s.set("a", .isExecuting, false)
            s.start("a")
        },
        expected: ["'a' announced isExecuting true twice: an operation runs once"]),
    ViolationCase(
        testDescription: "finished twice",
        build: { s in
            s.add("a")
            s.run("a", from: 0, to: 1)
            s.set("a", .isFinished, true)
        },
        expected: ["'a' announced isFinished true twice"]),
    ViolationCase(
        testDescription: "executing after it was cancelled before it started",
        build: { s in
            s.add("a")
            s.cancel("a")
            s.start("a")
        },
        expected: ["a started executing although it was cancelled before it started"]),
    ViolationCase(
        testDescription: "executing after finishing",
        build: { s in
            s.add("a")
            s.skip("a")
            s.start("a")
        },
        expected: ["'a' announced isExecuting true after it finished"]),
    ViolationCase(
        testDescription: "not ready again after it started",
        build: { s in
            s.add("a")
            s.start("a")
            s.set("a", .isReady, false)
        },
        expected: ["a stopped being ready after it started"]),
    ViolationCase(
        testDescription: "started before it was added",
        build: { s in s.start("a") },
        expected: [
            "'a' was dispatched before it was added to its queue",
            "'a' announced isExecuting true before it was added to its queue (its first isReady, with a null old "
                + "value)",
        ]),
    ViolationCase(
        testDescription: "completion before finish, and twice",
        build: { s in
            s.add("a")
            s.start("a")
            s.completion("a")
            s.finish("a")
            s.completion("a")
        },
        expected: [
            "the completion block of 'a' ran before 'a' finished", "the completion block of 'a' ran twice",
        ]),
    ViolationCase(
        testDescription: "block after finish",
        build: { s in
            s.add("a")
            s.run("a", from: 0, to: 1)
            s.block("a", 0, .returned)
        },
        expected: ["block 0 of 'a' returned after 'a' finished"]),
    ViolationCase(
        testDescription: "events after the end, and a second end",
        build: { s in
            s.end()
            s.add("a")
            s.end()
        },
        expected: [
            "the run ended completed but 'fetch' had not finished (nor 10 more)",
            "an event after the end of the run (the end was seq 1)",
            "an event after the end of the run (the end was seq 1)",
        ]),
    ViolationCase(
        testDescription: "completed while operations are unfinished",
        build: { s in
            s.add("a")
            s.add("b")
            s.start("a")
            s.end()
        },
        expected: ["the run ended completed but 'fetch' had not finished (nor 10 more)"]),
    ViolationCase(
        testDescription: "stalled end naming a finished operation",
        build: { s in
            s.add("a")
            s.run("a", from: 0, to: 1)
            s.end(.stalled([s.id("a"): .neverPostedFinish]))
        },
        expected: ["the stalled end names 'a' as stuck but it finished"]),
    ViolationCase(
        testDescription: "seq not increasing and time going back",
        build: { s in
            s.at(1)
            s.add("a")
            s.nextSeq = 1
            s.at(0.5)
            s.add("b")
        },
        expected: ["seq 1 does not increase on seq 1", "time goes back from 1.000s to 0.500s"]),
    ViolationCase(
        testDescription: "barrier started before earlier work finished",
        build: { s in
            s.add("w1")
            s.add("flush")
            s.start("w1")
            s.start("flush")
        },
        expected: [
            "flush was dispatched before its dependency w1 finished",
            "queue disk has 2 operations dispatched or executing (w1 and flush), more than its cap allows (1)",
            "flush started executing before its dependency w1 finished",
        ]),
    ViolationCase(
        testDescription: "later work started before the barrier finished",
        build: { s in
            s.add("flush")
            s.add("w2")
            s.start("flush")
            s.start("w2")
        },
        expected: [
            "queue disk has 2 operations dispatched or executing (flush and w2), more than its cap allows (1)",
            "w2 started executing before the barrier flush finished",
        ]),
    ViolationCase(
        testDescription: "later work dispatched while its barrier still waited for earlier work",
        build: { s in
            s.cap("disk", 2, old: 1)
            s.add("w1")
            s.add("flush", ready: false)
            s.add("w2", ready: false)
            s.dispatch("w2")
        },
        expected: ["w2 was dispatched before the barrier flush finished"]),
    ViolationCase(
        testDescription: "dispatched twice, and after it started",
        build: { s in
            s.add("a")
            s.dispatch("a")
            s.emit(.dispatched(s.id("a")))
            s.start("a")
            s.emit(.dispatched(s.id("a")))
        },
        expected: ["'a' was dispatched twice", "'a' was dispatched after it started"]),
    ViolationCase(
        testDescription: "started without a dispatch",
        build: { s in
            s.add("a")
            s.set("a", .isExecuting, true)
        },
        expected: ["a started executing before it was dispatched"]),
    ViolationCase(
        testDescription: "finished without running and without a dispatch",
        build: { s in
            s.add("a")
            s.cancel("a")
            s.set("a", .isFinished, true)
        },
        expected: ["a finished without running although it was never dispatched"]),
    ViolationCase(
        testDescription: "dispatched into a cap taken by one running and one waiting for a thread",
        build: { s in
            for name in ["a", "b", "c"] { s.add(name) }
            s.start("a")
            s.dispatch("b")
            s.dispatch("c")
        },
        expected: ["queue net has 3 operations dispatched or executing (a, b and c), more than its cap allows (2)"]),
]

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
