import ScenarioKit
import Testing

@testable import LifecycleEngine

/// How far a run's start is in handing its operations to Foundation.
@Suite struct BuildProgressTests {
    @Test(arguments: [
        (0, 2_550_000, "building 2,550,000 operations\u{2026} 0%"),
        (1_020_000, 2_550_000, "building 2,550,000 operations\u{2026} 40%"),
        (2_549_999, 2_550_000, "building 2,550,000 operations\u{2026} 99%"),
        (2_550_000, 2_550_000, "building 2,550,000 operations\u{2026} 100%"),
        (0, 0, "building 0 operations\u{2026} 100%"),
    ])
    func theLineSaysHowManyAndWhatPart(_ done: Int, _ total: Int, _ text: String) {
        let progress = BuildProgress(handedOver: done, total: total)
        #expect(progress.text == text)
        #expect(progress.isComplete == (done >= total))
    }

    /// Reported after chunks of adds, never backwards, the last one complete;
    /// the operations an `add` action adds later are not counted.
    @Test func theStartReportsItsAddsAsTheyGo() async {
        var b = ScenarioBuilder()
        let q = b.queue("q")
        for i in 0..<5_000 { b.work("o\(i)", on: q, ms: 0) }
        let late = b.work("late", on: q, ms: 0)
        b.at(1, .add(late))
        let run = ScenarioRun(scenario: b.scenario, options: RunOptions(speed: 20))
        var reports: [BuildProgress] = []
        run.start(reportingEvery: 0) { reports.append($0) }
        #expect(reports.count > 2)
        #expect(reports.allSatisfy { $0.total == 5_000 })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.handedOver <= $1.handedOver })
        #expect(reports.last?.isComplete == true)
        #expect(run.buildProgress == BuildProgress(handedOver: 5_000, total: 5_000))
        let events = await run.ended(timeout: 20)
        run.stop()
        expectCleanStream(events, b.scenario)
    }
}
