import Board
import CommandSupport
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen
import Synchronization

/// `opscope why` on a chain of 100,000 operations as a whole process,
/// against `opscope trace --format jsonl` of the same file, alternated
/// (issue 29: within 2× its trace; it was quadratic, 98 s); and the keys
/// of the graph view on a run of 100,000 operations, the first `G` and
/// the first `H` included, each key taken and its frame drawn in this
/// process as the interface does (≤ 100 ms).
@MainActor
enum WhyBench {
    static let chainLength = 100_000

    static func run(report: BenchReport, rounds: Int) {
        report.section("why (the chain of what held an operation back, as a whole process)")
        guard let folder = try? ScaleBench.scratchFolder() else {
            report.line("(cannot make a scratch folder: why skipped)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = ScaleBench.write(
            ScenarioGenerator.chain(count: chainLength, serial: true), "chain-100k.ops", in: folder)
        var ratios: [Double] = []
        var whys: [Double] = []
        var traces: [Double] = []
        var statuses: Set<Int32> = []
        for _ in 0..<max(1, min(rounds, 3)) {
            let trace = ScaleBench.once(Measure.opscopePath, ["trace", "--format", "jsonl", file])
            let why = ScaleBench.once(Measure.opscopePath, ["why", file, "o\(chainLength - 1)"])
            statuses.insert(why.status)
            whys.append(why.seconds)
            traces.append(trace.seconds)
            ratios.append(why.seconds / max(trace.seconds, 1e-9))
        }
        let ratio = Measure.median(ratios)
        report.figure(
            "why of the last of a 100,000-op chain / its trace (median)", String(format: "%.2f×", ratio),
            target: "≤ 2×", met: ratio <= 2 && statuses == [0])
        report.line(
            "    why \(Measure.ms(Measure.median(whys))), trace jsonl \(Measure.ms(Measure.median(traces))) "
                + "(medians, whole processes; why exit \(statuses.sorted()))")
    }
}

/// Every key of the graph view at 100,000 operations, each key taken and
/// its frame drawn as the interface does. As in the interface, the graph
/// is laid out ahead on a thread of its own as the run starts
/// (`ScreenMemo.layOutGraph`), and the keys come once the run is over;
/// apart from the figure, the layout ahead itself, and a first `G` pressed
/// at once after it began (the worst case, waiting for it).
@MainActor
enum GraphKeysBench {
    static func run(report: BenchReport, rounds: Int) {
        report.section("graph keys (the graph view of a run of 100,000 operations, key and frame)")
        let scenario = {
            var scenario = GraphBench.graph(count: 100_000)
            for i in scenario.operations.indices { scenario.operations[i].body = .work(.zero) }
            return scenario
        }()
        let size = Size(columns: 200, rows: 50)
        var worst: [String: Double] = [:]
        let keys: [(String, Key)] = [
            ("first G", .character("G")), ("first H", .character("H")), ("↓", .down), ("↑", .up), ("→", .right),
            ("←", .left), ("PgDn", .pageDown), ("PgUp", .pageUp), ("End", .end), ("Home", .home),
            ("H hides", .character("H")), ("PgDn (graph)", .pageDown), ("End (graph)", .end),
            ("Home (graph)", .home), ("e folds", .character("e")), ("e unfolds", .character("e")),
            ("H again", .character("H")), ("t", .character("t")), ("G closes", .character("G")),
        ]
        var order: [String] = []
        var events = 0
        var aheads: [Double] = []
        var parts: [(Double, Double, Double, Int)] = []
        let count = max(1, min(rounds, 3))
        for _ in 0..<count {
            let memo = ScreenMemo()
            let ahead = Mutex<Double>(0)
            let layout = Thread {
                let seconds = Measure.seconds { memo.layOutGraph(of: scenario) }
                ahead.withLock { $0 = seconds }
            }
            layout.start()
            let history = HistoryBench.record(scenario, keeping: true)
            events = history.count
            let board = history.board(after: history.count)
            var lanes = TimelineLanes(scenario: scenario)
            for i in history.events.indices { lanes.record(history.events[i]) }
            var state = InterfaceState(board: board)
            state.selectedOperation = OperationID(50_000)
            var frame = FrameInput(
                now: history.time(after: history.count), wallClock: 0, speed: 1, isPaused: true, size: size,
                glyphs: .unicode, colors: true, history: history)
            frame.memo = memo
            frame.timeline = lanes
            _ = InterfaceRenderer.render(board: board, state: state, frame: frame)
            for (label, key) in keys {
                let seconds = Measure.seconds {
                    _ = InterfaceController.handle(key, state: &state, board: board, frame: frame)
                    _ = InterfaceRenderer.render(board: board, state: state, frame: frame)
                }
                if worst[label] == nil { order.append(label) }
                worst[label] = max(worst[label] ?? 0, seconds)
            }
            aheads.append(ahead.withLock { $0 })
            // H's parts, for the record: the timeline from the lanes, the chain, its sentence.
            var timeline: RunTimeline?
            let read = Measure.seconds {
                let apart = history.events.apartFromOperations(prefix: history.count)
                timeline = RunTimeline(scenario: scenario, events: apart, lanes: lanes)
            }
            var path: CriticalPath?
            let chain = Measure.seconds { path = timeline?.criticalPath(to: OperationID(50_000)) }
            var words = ""
            let said = Measure.seconds {
                if let path, let timeline {
                    words = path.summary(in: timeline)
                    _ = path.listing(in: scenario)
                }
            }
            parts.append((read, chain, said, path?.steps.count ?? 0))
            _ = words
        }
        report.line("    the run: \(events.formatted()) events")
        let slowest = worst.max { $0.value < $1.value }
        report.figure(
            "the slowest key of the graph view at 100,000 ops: \(slowest?.key ?? "")",
            Measure.ms(slowest?.value ?? 0), target: "≤ 100 ms", met: (slowest?.value ?? 0) <= 0.1)
        report.line("    " + order.map { "\($0) \(Measure.ms(worst[$0] ?? 0))" }.joined(separator: ", "))
        report.line("    (each the slowest of \(count) sessions, a fresh memo each)")
        report.line("    the layout ahead, on its thread while the run went: \(Measure.ms(Measure.median(aheads)))")
        for (read, chain, said, links) in parts {
            report.line(
                "    H's parts: the timeline from the lanes \(Measure.ms(read)), the chain of \(links) links "
                    + "\(Measure.ms(chain)), its sentence and groups \(Measure.ms(said))")
        }
        // The worst case: G at once, before the layout ahead is done.
        let memo = ScreenMemo()
        let layout = Thread { memo.layOutGraph(of: scenario) }
        layout.start()
        let board = BoardState(scenario: scenario)
        var state = InterfaceState(board: board)
        state.selectedOperation = OperationID(50_000)
        var frame = FrameInput(now: 0, size: size, glyphs: .unicode)
        frame.memo = memo
        let atOnce = Measure.seconds {
            _ = InterfaceController.handle(.character("G"), state: &state, board: board, frame: frame)
            _ = InterfaceRenderer.render(board: board, state: state, frame: frame)
        }
        report.line("    G at once, as the layout ahead began (it waits for it): \(Measure.ms(atOnce))")
    }
}
