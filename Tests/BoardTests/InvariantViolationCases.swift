import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// A stream that breaks one rule, and the messages it must give.
struct ViolationCase: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let build: @Sendable (inout Script) -> Void
    let expected: [String]
}

/// Each rule `InvariantChecker` holds a stream to, broken once on
/// `InvariantCheckerTests`' scenario (`eachViolationIsFoundAndNamed`).
let violationCases: [ViolationCase] = [
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
        expected: ["'a' started executing although it was cancelled before it started"]),
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
        expected: ["'a' started executing before it was dispatched"]),
    ViolationCase(
        testDescription: "finished without running and without a dispatch",
        build: { s in
            s.add("a")
            s.cancel("a")
            s.set("a", .isFinished, true)
        },
        expected: ["'a' finished without running although it was never dispatched"]),
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
