import Board
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit

/// A library scenario run the way a learner watches it: in lesson mode, at
/// the file's own speed, every caption pausing scenario time; at each pause
/// the run is left to settle (what the engine can do without scenario time
/// moving: readiness, dispatches, starts at 0%) before the board is taken,
/// and then it goes on. The board at each caption is what the screen shows
/// while the learner reads it.
///
/// Settled means quiet for `settle` and no operation dispatched and still
/// waiting for a thread, or `threadWait` passed: a test process's thread
/// pool is shared with every other test running beside it, so a thread may
/// come later than in the interface, where one scenario runs at a time (a
/// scenario whose lesson is that wait, 18, is checked in the interface).
///
/// A caller that knows what a caption claims passes `holds`: a stop also
/// waits (up to `threadWait`) for it. Scenario time stands still at a
/// pause, so nothing the board gains meanwhile is from a later moment;
/// it is what the engine does while the learner reads (with both cores
/// busy a dispatch after a barrier can take longer than `settle`).
struct LessonRun {
    struct Stop {
        var caption: Int
        var text: String
        var board: BoardState
    }

    let scenario: Scenario
    private(set) var stops: [Stop] = []
    private(set) var events: [LifecycleEvent] = []

    /// Quiet this long (real seconds) counts as settled.
    static let settle = 0.15
    /// The longest a stop waits for threads to come (real seconds).
    static let threadWait = 3.0

    /// `stateReader` nil: the run observes no moment of dispatch (each is
    /// announced at its start) and withholds the captions about one.
    static func run(
        _ scenario: Scenario, timeout: Double = 60, stateReader: EngineState? = EngineState.processDefault,
        holds: @escaping @Sendable (_ caption: Int, BoardState) -> Bool = { _, _ in true }
    ) async -> LessonRun {
        await withCheckedContinuation { (continuation: CheckedContinuation<LessonRun, Never>) in
            Thread.detachNewThread {
                continuation.resume(
                    returning: LessonRun(scenario: scenario, timeout: timeout, stateReader: stateReader, holds: holds))
            }
        }
    }

    /// Blocks its thread: use `run(_:timeout:stateReader:holds:)`.
    private init(scenario: Scenario, timeout: Double, stateReader: EngineState?, holds: (Int, BoardState) -> Bool) {
        self.scenario = scenario
        let options = RunOptions(
            speed: scenario.speed ?? 1, stallPolicy: .endsRun, pausesAtCaptions: true, stateReader: stateReader)
        let run = ScenarioRun(scenario: scenario, options: options)
        run.start()
        let deadline = Date(timeIntervalSinceNow: timeout)
        var lastChange = Date()
        var pausedSince: Date?
        var checked = 0
        while Date() < deadline {
            let batch = run.takeEvents()
            if !batch.isEmpty {
                events += batch
                lastChange = Date()
            }
            if case .end = events.last?.kind {
                // Captions of the last moments: the board at the end.
                let board = BoardState(scenario: scenario, replaying: events)
                for index in Self.captions(in: events)[checked...] {
                    stops.append(Stop(caption: index, text: scenario.captions[index].text, board: board))
                }
                break
            }
            // Paused at a caption not taken yet, and quiet: take the board.
            let captions = Self.captions(in: events)
            if run.isPaused, captions.count > checked, Date().timeIntervalSince(lastChange) >= Self.settle {
                let since = pausedSince ?? Date()
                pausedSince = since
                let board = BoardState(scenario: scenario, replaying: events)
                let waiting = board.cards.contains(where: \.isWaitingForThread)
                let held = captions[checked...].allSatisfy { holds($0, board) }
                if (!waiting && held) || Date().timeIntervalSince(since) >= Self.threadWait {
                    for index in captions[checked...] {
                        stops.append(Stop(caption: index, text: scenario.captions[index].text, board: board))
                    }
                    checked = captions.count
                    pausedSince = nil
                    run.resume()
                    lastChange = Date()
                }
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        run.stop()
    }

    static func captions(in events: [LifecycleEvent]) -> [Int] {
        events.compactMap { e -> Int? in
            if case .caption(let index, _) = e.kind { return index }
            return nil
        }
    }
}
