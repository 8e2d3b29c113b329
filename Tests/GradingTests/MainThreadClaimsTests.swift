import Board
import EventFixtures
import Grading
import RunEvents
import ScenarioKit
import Testing

/// `expect main never blocked over D` and `expect OP finished by T`, read
/// from a file and judged on a hand-made run: the length of a wait is the
/// difference of the main thread's own two announcements, and a failure
/// names the wait's `at` line.
@Suite("the main thread's waits and a deadline")
struct MainThreadClaimsTests {
    /// export runs 0.050–1.800 on files; the main thread waits for it from
    /// 0.101 to 1.801 (asked by line 7); toast, on the main queue after
    /// export, runs 1.802–1.812.
    static let scenario = ScenarioReader.read(
        """
        queue ui main
        queue files max 2
        op export on files work 1.75s
        op toast on ui work 10ms after export
        op other on files work 10ms
        at 100ms wait export
        at 1.9s wait-all files
        expect main never blocked over 100ms
        expect main never blocked over 2s
        expect export finished by 2s
        expect toast finished by 1.5s
        expect other finished by 1s
        """
    ).scenario!

    static func events(secondWaitReturns: Bool) -> [LifecycleEvent] {
        var s = Script(scenario)
        s.add("export")
        s.add("toast", ready: false)
        s.add("other")
        s.at(0.050)
        s.start("export", thread: 1)
        s.start("other", thread: 2)
        s.at(0.060)
        s.finish("other")
        s.at(0.100)
        s.emit(.action(.wait(s.id("export")), origin: .timed(0), ignored: nil))
        s.at(0.101)
        s.emit(.mainThreadWait(.wait(s.id("export")), phase: .started), thread: .main)
        s.at(1.800)
        s.finish("export")
        s.ready("toast")
        s.at(1.801)
        s.emit(.mainThreadWait(.wait(s.id("export")), phase: .returned), thread: .main)
        s.at(1.802)
        s.start("toast")
        s.at(1.812)
        s.finish("toast")
        s.at(1.900)
        s.emit(.action(.waitAll(s.qid("files")), origin: .timed(1), ignored: nil))
        s.emit(.mainThreadWait(.waitAll(s.qid("files")), phase: .started), thread: .main)
        if secondWaitReturns {
            s.emit(.mainThreadWait(.waitAll(s.qid("files")), phase: .returned), thread: .main)
            s.end()
        } else {
            s.at(2.400)
            s.end(.stalled([:]))
        }
        return s.events
    }

    @Test func eachClaimIsJudgedFromTheObservedMoments() {
        let results = ExpectationChecker.evaluate(Self.scenario, events: Self.events(secondWaitReturns: true))
        let said = results.map { "\($0.held ? "✓" : "✗") \($0.expectation.text) — \($0.explanation)" }
        #expect(
            said == [
                "✗ main never blocked over 100ms — the main thread was blocked 1.7s from 0.101s waiting for export "
                    + "(export.waitUntilFinished(), 'at 100ms wait export', line 6)",
                "✓ main never blocked over 2s — the main thread's longest wait was 1.7s from 0.101s, for export: "
                    + "within 2s",
                "✓ export finished by 2s — export finished at 1.800s, by 2s",
                "✗ toast finished by 1.5s — toast finished at 1.812s, after 1.5s: it became ready at 1.800s (when "
                    + "export, its last dependency to finish, finished), started at 1.802s and ran 10ms",
                "✓ other finished by 1s — other finished at 0.060s, by 1s",
            ], "\(said)")
    }

    @Test func aWaitThatNeverReturnedIsBlockedForEver() {
        let results = ExpectationChecker.evaluate(Self.scenario, events: Self.events(secondWaitReturns: false))
        #expect(
            results[1].explanation
                == "the main thread was blocked from 1.900s and never returned (500ms until the run ended) waiting "
                + "for every operation of files (files.waitUntilAllOperationsAreFinished(), 'at 1.9s wait-all "
                + "files', line 7)")
        #expect(!results[1].held)
    }

    @Test func theReportNamesOnlyWaitsLongerThanATenthOfASecond() {
        var facts = RunFacts(scenario: Self.scenario)
        for event in Self.events(secondWaitReturns: true) { facts.record(event) }
        #expect(facts.mainThreadWaits.count == 2)
        #expect(facts.mainThreadWaits.map(\.actionIndex) == [0, 1])
        #expect(
            MainThreadWaitSpan.reportLines(facts.mainThreadWaits, in: Self.scenario, runEnd: facts.endTime) == [
                "main thread blocked longer than 100ms (1 time):",
                "  blocked 1.7s from 0.101s waiting for export (export.waitUntilFinished(), 'at 100ms wait export', "
                    + "line 6)",
            ])
    }

    @Test func aFileWithoutWaitsNeverBlockedTheMainThread() {
        let scenario = ScenarioReader.read("op a work 1ms\nexpect main never blocked over 0ms").scenario!
        var s = Script(scenario)
        s.add("a")
        s.start("a")
        s.finish("a")
        s.end()
        let results = ExpectationChecker.evaluate(scenario, events: s.events)
        #expect(results.map(\.held) == [true])
        #expect(results.first?.explanation == "the main thread never waited")
    }
}
