import Board
import CommandSupport
import CursesBackend
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Screen

/// Frame cost, bytes on the wire, start-up and idle CPU of the interface.
@MainActor
enum InterfaceBench {
    static func run(report: BenchReport, rounds: Int) {
        report.section("interface")
        frames(report: report, rounds: rounds)
        timelineFrames(report: report, rounds: rounds)
        startupAndIdle(report: report)
        PredictBench.run(report: report, rounds: rounds)
    }

    /// A board of 1,000 operations on four queues, spread over the columns.
    static func bigBoard() -> (Scenario, BoardState) {
        var text = "title \"1,000 operations\"\nqueue a max 50\nqueue b max 50\nqueue c serial\nqueue d\n"
        for i in 0..<1000 {
            text += "op op\(i) on \(["a", "b", "c", "d"][i % 4]) work \(1 + i % 9)s\n"
        }
        let scenario = EngineBench.scenario(text)
        var board = BoardState(scenario: scenario)
        var seq = 0
        func emit(_ kind: LifecycleEvent.Kind, _ t: Double) {
            seq += 1
            board.apply(LifecycleEvent(seq: seq, time: t, kind: kind))
        }
        for i in 0..<1000 {
            emit(.operation(OperationID(i), .isReady, old: nil, new: .bool(true)), 0)
        }
        for i in 0..<400 {
            emit(.operation(OperationID(i), .isExecuting, old: .bool(false), new: .bool(true)), 0.1)
            if i >= 1 {
                emit(.operation(OperationID(i), .isExecuting, old: .bool(true), new: .bool(false)), 0.5)
                emit(.operation(OperationID(i), .isFinished, old: .bool(false), new: .bool(true)), 0.5)
            }
        }
        return (scenario, board)
    }

    @MainActor
    static func frames(report: BenchReport, rounds: Int) {
        let size = Size(columns: 200, rows: 50)
        let (_, startBoard) = bigBoard()
        let session: TerminalSession
        do {
            session = try TerminalSession.headless(term: "tmux-256color", size: size)
        } catch {
            report.line("(frame figures skipped: no headless terminal: \(error))")
            return
        }
        defer { session.close() }
        var board = startBoard
        var state = InterfaceState()
        state.reconcile(with: board)
        func frame(now: Double) -> FrameInput {
            FrameInput(now: now, wallClock: 0, speed: 1, isPaused: false, size: size, glyphs: .unicode, colors: true)
        }
        session.flush(InterfaceRenderer.render(board: board, state: state, frame: frame(now: 1)).grid)

        // Full redraw after a resize.
        session.redrawAll()
        let beforeFull = session.bytesWritten
        session.flush(InterfaceRenderer.render(board: board, state: state, frame: frame(now: 1)).grid)
        let fullBytes = session.bytesWritten - beforeFull

        // Frames where one card changed: time moves on, and the progress
        // bar of the one executing card (and the clock) advance.
        var times: [Double] = []
        var bytes: [Int] = []
        var seq = board.lastSeq
        let frameCount = rounds * 20
        for k in 0..<frameCount {
            let now = 1 + Double(k) * 0.05
            let before = session.bytesWritten
            times.append(
                Measure.seconds {
                    let rendered = InterfaceRenderer.render(board: board, state: state, frame: frame(now: now))
                    session.flush(rendered.grid)
                })
            bytes.append(session.bytesWritten - before)
        }
        // For comparison: one more operation starts, which moves a card
        // between columns and shifts the cards below it.
        var moveBytes: [Int] = []
        for k in 0..<frameCount {
            let op = OperationID(400 + k)
            seq += 1
            board.apply(
                LifecycleEvent(
                    seq: seq, time: 1, kind: .operation(op, .isExecuting, old: .bool(false), new: .bool(true))))
            state.reconcile(with: board)
            let before = session.bytesWritten
            session.flush(InterfaceRenderer.render(board: board, state: state, frame: frame(now: 3)).grid)
            moveBytes.append(session.bytesWritten - before)
        }
        let median = Measure.median(times)
        report.figure(
            "build + flush one frame, 1,000 ops at 200×50 (median)", Measure.ms(median), target: "< 2 ms",
            met: median < 0.002)
        let medianBytes = Int(Measure.median(bytes.map(Double.init)))
        report.figure(
            "bytes, frame where one card's progress moved (median)", "\(medianBytes) B", target: "< 512 B",
            met: medianBytes < 512)
        report.line(
            "    a card moving to another column (the cards below it shift): \(Int(Measure.median(moveBytes.map(Double.init)))) B"
        )
        report.figure(
            "bytes, full redraw at 200×50 (tmux-256color)", "\(fullBytes) B", target: "< 32 KB",
            met: fullBytes < 32 * 1024)
    }

    /// The run of `bigBoard`'s scenario to its end, as the engine would
    /// announce it: each queue starts its operations as its cap allows
    /// (a: 50, b: 50, c serial, d: 8), each works 400ms on a thread of its
    /// own pool, so the timeline has spans all over and the thread view
    /// 109 threads.
    static func bigRun(_ scenario: Scenario) -> [LifecycleEvent] {
        let caps = [50, 50, 1, 8]
        let bases = [1, 51, 101, 102]
        var timed: [(time: Double, order: Int, kind: LifecycleEvent.Kind, thread: ThreadTag?)] = []
        var placed = [0, 0, 0, 0]
        for i in scenario.operations.indices {
            let op = OperationID(i)
            let q = scenario.operations[i].queue.index
            let j = placed[q]
            placed[q] += 1
            let start = Double(j / caps[q]) * 0.4
            timed.append((0, 0, .operation(op, .isReady, old: nil, new: .bool(true)), nil))
            timed.append(
                (
                    start, 2, .operation(op, .isExecuting, old: .bool(false), new: .bool(true)),
                    ThreadTag(bases[q] + j % caps[q])
                ))
            timed.append((start + 0.4, 0, .operation(op, .isExecuting, old: .bool(true), new: .bool(false)), nil))
            timed.append((start + 0.4, 1, .operation(op, .isFinished, old: .bool(false), new: .bool(true)), nil))
        }
        timed.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        return timed.enumerated().map { k, e in LifecycleEvent(seq: k + 1, time: e.time, kind: e.kind, thread: e.thread)
        }
    }

    /// The timeline (`t`) and the thread view of that run, whole frames
    /// built and flushed as the live edge moves on (every frame rescales
    /// the plot), the selection halfway down the lanes.
    @MainActor
    static func timelineFrames(report: BenchReport, rounds: Int) {
        let size = Size(columns: 200, rows: 50)
        let (scenario, _) = bigBoard()
        let events = bigRun(scenario)
        let board = BoardState(scenario: scenario, replaying: events)
        let lanes = TimelineLanes(scenario: scenario, events: events)
        let session: TerminalSession
        do {
            session = try TerminalSession.headless(term: "tmux-256color", size: size)
        } catch {
            report.line("(timeline figures skipped: no headless terminal: \(error))")
            return
        }
        defer { session.close() }
        var state = InterfaceState(board: board)
        state.selectedOperation = OperationID(500)
        state.boardArea = .timeline
        let end = lanes.endTime
        func frame(now: Double) -> FrameInput {
            var f = FrameInput(
                now: now, wallClock: 0, speed: 1, isPaused: false, size: size, glyphs: .unicode, colors: true)
            f.timeline = lanes
            return f
        }
        func median(_ area: BoardArea) -> Double {
            state.boardArea = area
            state.reconcile(with: board, frame: frame(now: end))
            session.flush(InterfaceRenderer.render(board: board, state: state, frame: frame(now: end)).grid)
            var times: [Double] = []
            for k in 0..<(rounds * 20) {
                let f = frame(now: end + Double(k) * 0.05)
                times.append(
                    Measure.seconds {
                        session.flush(InterfaceRenderer.render(board: board, state: state, frame: f).grid)
                    })
            }
            return Measure.median(times)
        }
        let timeline = median(.timeline)
        report.figure(
            "one timeline frame of 1,000 operations at 200×50 (median)", Measure.ms(timeline), target: "≤ 2 ms",
            met: timeline <= 0.002)
        let threads = median(.threads)
        report.line("    the thread view of the same run (109 threads): \(Measure.ms(threads))")
    }

    /// Text of the first frame's last rows (the key bar of a paused run):
    /// once it came, the frame is on the terminal.
    static let firstFrameMarker = "timeline"

    /// Starts the real program, paused, on a pseudo-terminal of its own
    /// and times its first frame from outside (`TerminalProbe`: from just
    /// before the spawn to the frame's last byte on the terminal), then
    /// reads its CPU use over 10 seconds.
    static func startupAndIdle(report: BenchReport) {
        guard FileManager.default.fileExists(atPath: "scenarios/01-chain.ops") else {
            report.line("(start-up and idle figures skipped: they need the project folder)")
            return
        }
        let probe: TerminalProbe
        do {
            probe = try TerminalProbe(
                Measure.opscopePath, ["run", "--paused", "scenarios/01-chain.ops"], columns: 200, rows: 50,
                marker: firstFrameMarker)
        } catch {
            report.line("(start-up and idle figures skipped: \(error))")
            return
        }
        defer { probe.stop() }
        guard let startup = probe.firstFrame else {
            report.line("(start-up figure skipped: no first frame came on the terminal)")
            return
        }
        report.figure(
            "from process start to the first frame", Measure.ms(startup), target: "< 100 ms", met: startup < 0.1)
        probe.drain(for: 1)
        guard let before = ProcessCPU.seconds(of: probe.pid) else { return }
        probe.drain(for: 10)
        guard let after = ProcessCPU.seconds(of: probe.pid) else { return }
        let percent = (after - before) / 10 * 100
        report.figure(
            "CPU while paused, over 10 s (% of one core)", String(format: "%.2f %%", percent), target: "< 1 %",
            met: percent < 1)
    }
}
