import Board
import Foundation
import RunEvents
import ScenarioKit
import Screen

/// The table view (`t` after the threads) of 10,000 operations: a frame at
/// 200×50 sorted by waited, the order kept in the memo (the arrows move the
/// selection, nothing is sorted again), and a sort from scratch.
@MainActor
enum TableBench {
    static func run(report: BenchReport, rounds: Int) {
        report.section("table")
        var text = "title \"10,000 operations\"\nqueue a max 50\nqueue b max 50\nqueue c serial\nqueue d max 8\n"
        for i in 0..<10_000 {
            text += "op op\(i) on \(["a", "b", "c", "d"][i % 4]) work \(1 + i % 9)s\n"
        }
        let scenario = EngineBench.scenario(text)
        let events = InterfaceBench.bigRun(scenario)
        // The history cursor halfway: some finished, some running, the rest waiting.
        let board = BoardState(scenario: scenario, replaying: Array(events.prefix(events.count / 2)))
        let lanes = TimelineLanes(scenario: scenario, events: events)
        let waited = OperationTable.Sort(column: .waited, descending: true)

        let size = Size(columns: 200, rows: 50)
        let memo = ScreenMemo()
        var state = InterfaceState(board: board)
        state.boardArea = .table
        state.tableView.sort = waited
        var frame = FrameInput(
            now: board.lastEventTime, wallClock: 0, speed: 1, isPaused: true, size: size, glyphs: .unicode,
            colors: true)
        frame.timeline = lanes
        frame.memo = memo
        let rows = OperationTable(board: board, lanes: lanes, sort: waited).rows
        state.selectedOperation = rows[rows.count / 2]
        _ = InterfaceRenderer.render(board: board, state: state, frame: frame)  // sorts once, into the memo
        var times: [Double] = []
        for k in 0..<(rounds * 30) {
            // An arrow's worth of change per frame: the selection moves one row.
            state.selectedOperation = rows[rows.count / 2 + k % 40]
            state.reconcile(with: board, frame: frame)
            times.append(Measure.seconds { _ = InterfaceRenderer.render(board: board, state: state, frame: frame) })
        }
        let frameTime = Measure.median(times)
        report.figure(
            "table frame, 10,000 operations at 200×50, sorted (median)", Measure.ms(frameTime),
            target: "≤ 2 ms", met: frameTime <= 0.002)

        func sortTime(_ sort: OperationTable.Sort) -> Double {
            var times: [Double] = []
            for _ in 0..<rounds {
                times.append(Measure.seconds { _ = OperationTable(board: board, lanes: lanes, sort: sort) })
            }
            return Measure.median(times)
        }
        let resort = sortTime(waited)
        report.figure(
            "re-sorting those 10,000 rows by waited (median)", Measure.ms(resort), target: "≤ 20 ms",
            met: resort <= 0.020)
        let byName = sortTime(OperationTable.Sort(column: .name))
        let byWhy = sortTime(OperationTable.Sort(column: .why))
        report.line("    by name: \(Measure.ms(byName)); by why not running (a reason per row): \(Measure.ms(byWhy))")
    }
}
