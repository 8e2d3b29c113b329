import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

private let base = makeScenario(
    queues: [QueueSpec(name: "net", cap: .limit(3)), QueueSpec(name: "disk", cap: .limit(1))],
    ops: [
        op("fetch", on: "net", work: 1.2), op("parse", on: "net", after: ["fetch"]),
        op("thumbs", on: "net"), op("upload", on: "net"), op("late", on: "net"),
        op("save", on: "disk"), op("render", on: "disk", after: ["save"]),
        op("idle", on: "disk"),
    ])
private let n = Names(scenario: base)

/// fetch 0.001–1.201 with thumbs 0.002–0.300 beside it (a cancel of
/// thumbs at 0.5 comes too late: Foundation ignores it); parse 1.203–1.6; upload cancelled
/// while running 1.3–1.4 (ends cancelled); late skipped at 0.5; save
/// never finishes; render waits for save; idle never cancelled nor run.
private let events: [LifecycleEvent] = {
    var s = Script(base)
    s.cap("net", 3)
    for name in ["fetch", "thumbs", "upload", "save", "idle"] { s.add(name) }
    for name in ["parse", "late", "render"] { s.add(name, ready: false) }
    s.at(0.001)
    s.start("fetch")
    s.at(0.002)
    s.start("thumbs")
    s.at(0.010)
    s.start("save")
    s.at(0.300)
    s.finish("thumbs")
    s.at(0.500)
    s.skip("late")
    s.at(1.201)
    s.finish("fetch")
    s.ready("parse")
    s.at(1.203)
    s.start("parse")
    s.at(1.300)
    s.start("upload")
    s.at(1.350)
    s.cancel("upload")
    s.at(1.400)
    s.finish("upload")
    s.at(1.600)
    s.finish("parse")
    s.at(2.000)
    s.end(.stalled([n("save"): .neverPostedFinish, n("render"): .waitsFor(n("save"), root: n("save"))]))
    return s.events
}()

struct ClaimCase: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let claim: Claim
    let held: Bool
    let explanation: String
}

private let claimCases: [ClaimCase] = [
    ClaimCase(
        testDescription: "before held", claim: .before(n("fetch"), n("parse")), held: true,
        explanation: "fetch finished at 1.201s, parse started at 1.203s"),
    ClaimCase(
        testDescription: "before: B started first", claim: .before(n("parse"), n("upload")), held: false,
        explanation:
            "upload started at 1.300s, before parse finished at 1.600s: upload does not depend on parse (it has no dependency)"
    ),
    ClaimCase(
        testDescription: "before: B never started", claim: .before(n("fetch"), n("render")), held: false,
        explanation: "render never started"),
    ClaimCase(
        testDescription: "before: A never finished", claim: .before(n("save"), n("parse")), held: false,
        explanation: "parse started at 1.203s but save never finished"),
    ClaimCase(
        testDescription: "order held", claim: .order([n("fetch"), n("thumbs"), n("parse")]), held: true,
        explanation: "started in order: fetch at 0.001s, thumbs at 0.002s, parse at 1.203s"),
    ClaimCase(
        testDescription: "order wrong", claim: .order([n("parse"), n("fetch")]), held: false,
        explanation:
            "started in another order: fetch at 0.001s, parse at 1.203s; fetch started before parse: parse depends on "
            + "fetch, so it became ready only when fetch finished at 1.201s"),
    ClaimCase(
        testDescription: "order with one never started", claim: .order([n("fetch"), n("late"), n("idle")]),
        held: false, explanation: "late and idle never started"),
    ClaimCase(
        testDescription: "concurrent held", claim: .concurrent([n("fetch"), n("thumbs")]), held: true,
        explanation: "fetch and thumbs were both executing at 0.002s"),
    ClaimCase(
        testDescription: "concurrent never", claim: .concurrent([n("fetch"), n("thumbs"), n("parse")]),
        held: false, explanation: "fetch, thumbs and parse were never executing at once (at most 2 at a time)"),
    ClaimCase(
        testDescription: "concurrent never started", claim: .concurrent([n("fetch"), n("render")]),
        held: false, explanation: "render never started"),
    ClaimCase(
        testDescription: "peak held", claim: .peak(n.q("net"), 2), held: true,
        explanation: "peak of net was 2"),
    ClaimCase(
        testDescription: "peak wrong", claim: .peak(n.q("net"), 3), held: false,
        explanation: "peak of net was 2, not 3"),
    ClaimCase(
        testDescription: "finished held", claim: .finished(n("fetch")), held: true,
        explanation: "fetch finished at 1.201s"),
    ClaimCase(
        testDescription: "finished but cancelled", claim: .finished(n("upload")), held: false,
        explanation: "upload was cancelled at 1.350s while it was executing (it finished at 1.400s)"),
    ClaimCase(
        testDescription: "finished never", claim: .finished(n("save")), held: false,
        explanation: "save never finished (it never posted isFinished)"),
    ClaimCase(
        testDescription: "cancelled while running", claim: .cancelled(n("upload")), held: true,
        explanation: "upload was cancelled at 1.350s and finished at 1.400s"),
    ClaimCase(
        testDescription: "cancelled too late", claim: .cancelled(n("thumbs")), held: false,
        explanation: "thumbs finished at 0.300s without being cancelled"),
    ClaimCase(
        testDescription: "cancelled: never", claim: .cancelled(n("fetch")), held: false,
        explanation: "fetch finished at 1.201s without being cancelled"),
    ClaimCase(
        testDescription: "cancelled: neither", claim: .cancelled(n("render")), held: false,
        explanation: "render was never cancelled and never finished"),
    ClaimCase(
        testDescription: "skipped held", claim: .skipped(n("late")), held: true,
        explanation: "late was cancelled at 0.500s before it started and finished at 0.500s without running"),
    ClaimCase(
        testDescription: "skipped but it ran", claim: .skipped(n("upload")), held: false,
        explanation:
            "upload started at 1.300s, before the cancel at 1.350s: cancel on an executing operation only sets the flag"
    ),
    ClaimCase(
        testDescription: "skipped but never cancelled", claim: .skipped(n("idle")), held: false,
        explanation: "idle was never cancelled"),
    ClaimCase(
        testDescription: "stuck held, with the reason", claim: .stuck(n("render")), held: true,
        explanation: "render had not finished when the run stalled (it waits for save, which never finishes)"),
    ClaimCase(
        testDescription: "stuck held, never posted finish", claim: .stuck(n("save")), held: true,
        explanation: "save had not finished when the run stalled (it never posted isFinished)"),
    ClaimCase(
        testDescription: "stuck but finished", claim: .stuck(n("fetch")), held: false,
        explanation: "fetch finished at 1.201s"),
]

@Test(arguments: claimCases)
func eachClaimIsJudgedWithItsEvidence(_ c: ClaimCase) {
    var scenario = base
    scenario.expectations = [Expectation(claim: c.claim, text: c.testDescription)]
    let results = ExpectationChecker.evaluate(scenario, events: events)
    #expect(results.count == 1)
    #expect(results.first?.held == c.held)
    #expect(results.first?.explanation == c.explanation)
    #expect(results.first?.expectation == scenario.expectations[0])
}

@Test func skippedHoldsForACancelledOperationThatNeverFinished() {
    var s = Script(base)
    s.suspended("net", true)
    s.add("late")
    s.at(0.5)
    s.cancel("late")
    s.at(1)
    s.end(.stalled([n("late"): .queueSuspended(n.q("net"))]))
    var scenario = base
    scenario.expectations = [Expectation(claim: .skipped(n("late")), text: "skipped late")]
    let result = ExpectationChecker.evaluate(scenario, events: s.events)
    #expect(result.map(\.held) == [true])
    #expect(result.first?.explanation == "late was cancelled at 0.500s before it started and never ran (nor finished)")
}

@Test func stuckFailsWhenTheRunNeverEnded() {
    var scenario = base
    scenario.expectations = [Expectation(claim: .stuck(n("save")), text: "stuck save")]
    let result = ExpectationChecker.evaluate(scenario, events: Array(events.dropLast()))
    #expect(result.map(\.explanation) == ["the run never ended"])
    #expect(result.map(\.held) == [false])
}

struct ExitCase: CustomTestStringConvertible, Sendable {
    let testDescription: String
    let outcome: RunOutcome?
    let held: [Bool]
    let expectedStuck: [String]
    let passes: Bool
}

private let exitCases: [ExitCase] = [
    ExitCase(
        testDescription: "completed, all held", outcome: .completed, held: [true, true], expectedStuck: [], passes: true
    ),
    ExitCase(testDescription: "completed, no claims", outcome: .completed, held: [], expectedStuck: [], passes: true),
    ExitCase(
        testDescription: "completed, one failed", outcome: .completed, held: [true, false], expectedStuck: [],
        passes: false
    ),
    ExitCase(testDescription: "never ended", outcome: nil, held: [true], expectedStuck: [], passes: false),
    ExitCase(
        testDescription: "stalled, every stuck op expected", outcome: .stalled([n("save"): .neverPostedFinish]),
        held: [true], expectedStuck: ["save"], passes: true),
    ExitCase(
        testDescription: "stalled on an op no expect names",
        outcome: .stalled([n("save"): .neverPostedFinish, n("render"): .waitsFor(n("save"), root: n("save"))]),
        held: [true], expectedStuck: ["save"], passes: false),
]

@Test(arguments: exitCases)
func verdictFollowsTheLanguageReference(_ c: ExitCase) {
    var scenario = base
    scenario.expectations = c.expectedStuck.map { Expectation(claim: .stuck(n($0)), text: "stuck \($0)") }
    let results = c.held.enumerated().map { i, held in
        ExpectationResult(
            expectation: Expectation(claim: .finished(n("fetch")), text: "claim \(i)"), held: held,
            explanation: "")
    }
    #expect(ExpectationChecker.passes(outcome: c.outcome, results: results, scenario: scenario) == c.passes)
}

@Test func theExampleStreamIsItselfClean() {
    #expect(InvariantChecker.check(events, scenario: base) == [])
}

@Test func aJudgeFedInBatchesGivesTheVerdictsOfEachClaimAlone() {
    var scenario = base
    scenario.expectations = claimCases.map { Expectation(claim: $0.claim, text: $0.testDescription) }
    var judge = ExpectationJudge(scenario: scenario)
    var rest = events[...]
    while !rest.isEmpty {
        for event in rest.prefix(5) { judge.record(event) }
        rest = rest.dropFirst(5)
    }
    let together = judge.results()
    #expect(together.map(\.held) == claimCases.map(\.held))
    #expect(together.map(\.explanation) == claimCases.map(\.explanation))
}
