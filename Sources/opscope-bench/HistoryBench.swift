import Board
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit

/// The history the interface keeps (issue 10): a real run of 100,000
/// zero-work operations recorded into a `BoardHistory` as the interface
/// records it (the live board applied, then appended), then seeks to
/// moments spread over it; the resident memory it added.
@MainActor
enum HistoryBench {
    static func run(report: BenchReport, rounds: Int) {
        report.section("history (the interface's record of a run, and seeking in it)")
        let scenario = EngineBench.scenario(ScenarioGenerator.flat(count: 100_000))
        // A run without a history first: what the second run adds to the
        // resident memory then is what its history costs beyond a run.
        _ = record(scenario, keeping: false)
        let afterPlainRun = Measure.residentBytes()
        let history = record(scenario, keeping: true)
        let added = max(0, Measure.residentBytes() - afterPlainRun)
        var times: [Double] = []
        var generator = SystemRandomNumberGenerator()
        let positions = (0..<(rounds * 20)).map { _ in Int.random(in: 0...history.count, using: &generator) }
        for n in positions {
            var shown: BoardState?
            times.append(Measure.seconds { shown = history.board(after: n) })
            precondition(shown != nil)
        }
        let median = Measure.median(times)
        let worst = times.max() ?? 0
        report.figure(
            "seek to a random moment of \(history.count.formatted()) events (median)", Measure.ms(median),
            target: "≤ 10 ms", met: median <= 0.010)
        report.figure(
            "the same, worst of \(times.count)", Measure.ms(worst), target: "≤ 10 ms", met: worst <= 0.010)
        report.figure(
            "resident memory the history adds beyond a run", "\(added / 1_048_576) MB", target: "≤ 150 MB",
            met: added <= 150 << 20)
        report.line("    one checkpoint every \(history.interval) events")
    }

    /// A real run, its events applied to a live board and (with
    /// `keeping`) appended to a history, as the interface does.
    static func record(_ scenario: Scenario, keeping: Bool) -> BoardHistory {
        var history = BoardHistory(scenario: scenario)
        var board = BoardState(scenario: scenario)
        EngineBench.runToTheEnd(scenario, options: RunOptions(speed: 1, keepsHistory: false)) { event in
            board.apply(event)
            if keeping { history.append(event, boardAfter: board) }
        }
        return history
    }
}
