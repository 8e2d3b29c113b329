import Board
import Grading
import RunEvents
import ScenarioKit
import TextKit

/// Where the run is, in the words the title bar, the key bar and the
/// status line use. Derived from the board (its end, its stall), the frame
/// (paused, not started, the verdicts) and the selected queue, never kept.
enum RunStatus: Sendable, Hashable {
    /// Opened paused, not started yet (its main-queue work would begin at
    /// once and could not be held): Space starts it.
    case notStarted
    case running
    /// Scenario time paused: by Space, or by a caption in lesson mode.
    case paused(atCaption: Bool)
    /// A stall the user can leave: a queue holds ready work back. The
    /// sentence, and a short form for narrow title bars.
    case waiting(String, short: String)
    /// A stall only a restart leaves: what never finishes.
    case stuck(String, expected: Bool)
    /// Every operation finished and every timed action ran.
    case ended

    init(board: BoardState, frame: FrameInput, selectedQueue: QueueID?) {
        if frame.notStarted {
            self = .notStarted
            return
        }
        let stuck: [OperationID: StuckReason]?
        switch board.outcome {
        case .completed?:
            self = .ended
            return
        case .stalled(let reasons)?:
            stuck = reasons
        case nil:
            stuck = board.stall
        }
        if let stuck {
            self = Self.stall(stuck, board: board, frame: frame, selectedQueue: selectedQueue)
            return
        }
        self = frame.isPaused ? .paused(atCaption: frame.pausedAtCaption) : .running
    }

    /// The run can still change: not ended, not stuck for good.
    var isLive: Bool {
        switch self {
        case .ended, .stuck: false
        default: true
        }
    }

    private static func stall(
        _ stuck: [OperationID: StuckReason], board: BoardState, frame: FrameInput, selectedQueue: QueueID?
    ) -> RunStatus {
        let scenario = board.scenario
        let expected =
            frame.expectationResults.map {
                ExpectationChecker.passes(outcome: .stalled(stuck), results: $0, scenario: scenario)
            } ?? false
        let suspended = stuck.suspendedQueues(in: scenario)
        var roots: [OperationID] = []
        for op in stuck.keys.sorted() {
            switch stuck[op]! {
            case .neverPostedFinish:
                if !roots.contains(op) { roots.append(op) }
            case .waitsFor(_, let root):
                if stuck[root] == .neverPostedFinish, !roots.contains(root) { roots.append(root) }
            case .waitsForSlot(_, _, let holders):
                for h in holders where stuck[h] == .neverPostedFinish && !roots.contains(h) { roots.append(h) }
            case .queueSuspended, .mainThreadBlocked, .notStartedByHand, .unknown:
                break
            }
        }
        let dash = frame.glyphs.dash
        let asExpected = expected ? " (as expected)" : ""
        let stuck = { (what: String) in
            RunStatus.stuck(expected ? "stuck as expected: \(what)" : "stuck: \(what)", expected: expected)
        }
        // No key reaches the run while the main thread is blocked: only a
        // restart (after the wait, never) or leaving ends this.
        if let wait = board.mainThreadWait {
            let what = "the main thread is blocked in \(wait.call(in: scenario)) for good"
            return stuck(what)
        }
        if !suspended.isEmpty {
            let names = suspended.map { scenario[queue: $0].name }
            if suspended.count == 1 {
                let hint = selectedQueue == suspended[0] ? "s resumes it" : "Tab to it, s resumes it"
                return .waiting(
                    "waiting: \(names[0]) is suspended \(dash) \(hint)\(asExpected)",
                    short: "waiting: \(names[0]) suspended")
            }
            return .waiting(
                "waiting: \(Spelling.list(names)) are suspended \(dash) s resumes the selected one\(asExpected)",
                short: "waiting: \(suspended.count) queues suspended")
        }
        let what: String
        if roots.isEmpty {
            what = "nothing can progress"
        } else {
            let names = Wording.names(roots.sorted(), in: scenario)
            what = roots.count == 1 ? "\(names) never posts isFinished" : "\(names) never post isFinished"
        }
        return stuck(what)
    }
}
