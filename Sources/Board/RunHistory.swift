import RunEvents
import ScenarioKit

/// The facts about a finished (or interrupted) run that expectations are
/// judged on, gathered in one pass over the event stream.
///
/// "Executing" means from `isExecuting` true until `isExecuting` false or
/// `isFinished` true, whichever comes first. Barriers count as operations
/// of their queue (their `isExecuting` is their block running).
struct RunHistory {
    /// When something was announced: the event's sequence number (which
    /// orders events) and its scenario time in seconds (which is shown).
    struct Stamp: Hashable {
        var seq: Int
        var time: Double
    }

    struct OperationFacts {
        /// The first `isExecuting` true.
        var started: Stamp?
        /// The first `isFinished` true.
        var finished: Stamp?
        /// The first `isCancelled` true.
        var cancelled: Stamp?
        var isExecuting = false
        /// `isCancelled` was true when `isFinished` turned true.
        var cancelledWhenFinished = false

        /// Cancelled before it started, and never started since.
        var wasSkipped: Bool { cancelled != nil && started == nil }
    }

    let events: [LifecycleEvent]
    private(set) var ops: [OperationFacts]
    /// Per queue, the most of its operations executing at once.
    private(set) var peaks: [Int]
    /// The outcome of the first `.end`; nil when the run never ended.
    var outcome: RunOutcome?

    init(scenario: Scenario, events: [LifecycleEvent]) {
        self.events = events
        ops = Array(repeating: OperationFacts(), count: scenario.operations.count)
        peaks = Array(repeating: 0, count: scenario.queues.count)
        var executing = Array(repeating: 0, count: scenario.queues.count)
        for event in events {
            switch event.kind {
            case .operation(let op, let key, _, let new):
                guard scenario.contains(op), let value = new.boolValue else { continue }
                let q = scenario[operation: op].queue.index
                let stamp = Stamp(seq: event.seq, time: event.time)
                let wasExecuting = ops[op.index].isExecuting
                switch key {
                case .isExecuting where value:
                    if ops[op.index].started == nil { ops[op.index].started = stamp }
                    ops[op.index].isExecuting = true
                case .isExecuting, .isFinished:
                    ops[op.index].isExecuting = false
                    if key == .isFinished && value && ops[op.index].finished == nil {
                        ops[op.index].finished = stamp
                        ops[op.index].cancelledWhenFinished = ops[op.index].cancelled != nil
                    }
                case .isCancelled where value:
                    if ops[op.index].cancelled == nil { ops[op.index].cancelled = stamp }
                default:
                    break
                }
                if ops[op.index].isExecuting != wasExecuting {
                    executing[q] += ops[op.index].isExecuting ? 1 : -1
                    peaks[q] = max(peaks[q], executing[q])
                }
            case .end(let result):
                if outcome == nil { outcome = result }
            default:
                break
            }
        }
    }

    subscript(_ op: OperationID) -> OperationFacts {
        ops.indices.contains(op.index) ? ops[op.index] : OperationFacts()
    }

    func peak(of queue: QueueID) -> Int {
        peaks.indices.contains(queue.index) ? peaks[queue.index] : 0
    }

    /// The first moment all of `ids` were executing at once, or else the
    /// most of them that ever were (with `moment` nil).
    func overlap(of ids: Set<OperationID>) -> (moment: Stamp?, most: Int) {
        var executing = Set<OperationID>()
        var most = 0
        for event in events {
            guard case .operation(let op, let key, _, .bool(let value)) = event.kind,
                ids.contains(op)
            else { continue }
            if key == .isExecuting && value {
                executing.insert(op)
            } else if key == .isExecuting || (key == .isFinished && value) {
                executing.remove(op)
            }
            most = max(most, executing.count)
            if executing.count == ids.count {
                return (Stamp(seq: event.seq, time: event.time), most)
            }
        }
        return (nil, most)
    }
}
