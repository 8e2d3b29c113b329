import Board
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

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
        steps(history, scenario: scenario, report: report, rounds: rounds)
    }

    /// A step back (`[`) at random moments of that history, as the
    /// interface takes it: the key on the board shown, then the frame of
    /// the moment it went to, at 200×50, on the board, the timeline and
    /// the threads.
    static func steps(_ history: BoardHistory, scenario: Scenario, report: BenchReport, rounds: Int) {
        let formatter = EventFormatter(scenario: scenario)
        let log = history.events.indices.map { LogEntry(history.events[$0], formatter: formatter) }
        var lanes = TimelineLanes(scenario: scenario)
        for i in history.events.indices { lanes.record(history.events[i]) }
        let size = Size(columns: 200, rows: 50)
        var generator = SystemRandomNumberGenerator()
        let memo = ScreenMemo()
        for view in BoardArea.allCases {
            var times: [Double] = []
            var shown = history.board(after: history.count)
            var state = InterfaceState(board: shown)
            state.boardArea = view
            for _ in 0..<(rounds * 10) {
                state.historyCursor = Int.random(in: 1...history.count, using: &generator)
                var frame = FrameInput(
                    now: 0, wallClock: 0, speed: 1, isPaused: true, size: size, glyphs: .unicode, colors: true,
                    log: log,
                    history: history, historyShown: state.historyCursor)
                frame.timeline = lanes
                frame.memo = memo
                // The moment shown before the key, as the last frame had it
                // (the interface writes the next moment over it).
                history.seek(&shown, to: state.historyCursor ?? history.count)
                _ = InterfaceRenderer.render(board: shown, state: state, frame: frame)
                times.append(
                    Measure.seconds {
                        _ = InterfaceController.handle(
                            .character("["), state: &state, board: shown, live: nil, frame: frame)
                        frame.historyShown = state.historyCursor
                        frame.now = history.time(after: state.historyCursor ?? history.count)
                        history.seek(&shown, to: state.historyCursor ?? history.count)
                        _ = InterfaceRenderer.render(board: shown, state: state, frame: frame)
                    })
            }
            let median = Measure.median(times)
            report.figure(
                "a step back (`[`) with its frame at 200×50, \(view) view (median of \(times.count))",
                Measure.ms(median), target: "≤ 10 ms", met: median <= 0.010)
            report.line("    worst \(Measure.ms(times.max() ?? 0))")
        }
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
