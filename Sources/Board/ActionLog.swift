import RunEvents
import ScenarioKit

/// One action the stream announced: what, by whom, when, and whether the
/// engine ignored it (its `.action` event, whole).
public struct ActionEntry: Sendable, Hashable {
    public let action: Action
    public let origin: ActionOrigin
    /// Why the engine ignored it; nil when it carried it out.
    public let ignored: ActionRefusal?
    /// Scenario seconds of its event.
    public let time: Double
    public let seq: Int
    /// The log index of the entry before it that acts on the same queue
    /// (`Action.queue`); -1 for none. A queue's history is walked back
    /// along these, without looking at the other entries.
    let previousOnQueue: Int32
}

/// Every action of the stream so far, in order, as the board keeps it: the
/// provenance the queue inspector tells, and what an operation's cancel is
/// traced back to.
///
/// A function of the stream's prefix like the rest of the board. Its size
/// goes with the actions, never the operations: entries in chunks of
/// `chunkSize`, so that a board a history checkpoint copies shares every
/// full chunk with the live one (an append copies at most the last chunk),
/// one index per queue, and the explicit cancels whose `isCancelled` has
/// not come yet (one at a time in practice: the engine performs actions
/// one after another).
public struct ActionLog: Sendable, Hashable {
    static let chunkShift = 5
    static let chunkSize = 1 << chunkShift

    private var chunks: [ContiguousArray<ActionEntry>] = []
    public private(set) var count = 0
    /// Per queue, the index of its last entry; -1 for none.
    private var lastOnQueue: [Int32]
    /// Per operation index, its `cancel` action carried out whose
    /// `isCancelled` the stream has not shown yet.
    private var pendingCancels: [Int32: Int32] = [:]

    init(queueCount: Int) {
        lastOnQueue = Array(repeating: -1, count: queueCount)
    }

    public subscript(index: Int) -> ActionEntry {
        chunks[index >> Self.chunkShift][index & (Self.chunkSize - 1)]
    }

    /// Keeps `event` if it is an action.
    mutating func record(_ event: LifecycleEvent) {
        guard case .action(let action, let origin, let ignored) = event.kind else { return }
        let q = action.queue.map(\.index).flatMap { lastOnQueue.indices.contains($0) ? $0 : nil }
        let entry = ActionEntry(
            action: action, origin: origin, ignored: ignored, time: event.time, seq: event.seq,
            previousOnQueue: q.map { lastOnQueue[$0] } ?? -1)
        if count % Self.chunkSize == 0 { chunks.append([]) }
        chunks[chunks.count - 1].append(entry)
        if let q { lastOnQueue[q] = Int32(count) }
        if ignored == nil, case .cancel(let op) = action { pendingCancels[Int32(op.index)] = Int32(count) }
        count += 1
    }

    /// The entries that act on `queue`, newest first, at most `limit`
    /// (walked back along the queue's own entries: costs what it returns).
    public func entries(of queue: QueueID, limit: Int = .max) -> [Int] {
        guard lastOnQueue.indices.contains(queue.index) else { return [] }
        var out: [Int] = []
        var i = Int(lastOnQueue[queue.index])
        while i >= 0 && out.count < limit {
            out.append(i)
            i = Int(self[i].previousOnQueue)
        }
        return out
    }

    /// How many entries act on `queue`.
    public func count(of queue: QueueID) -> Int { entries(of: queue).count }

    /// The action that cancelled `op`, at its first `isCancelled` true
    /// (`queue`: its queue; `addedSeq`: its add): its own `cancel` carried
    /// out and not yet seen through, else the first cancel-all of its queue
    /// carried out after it was added. The engine announces an action
    /// before it calls Foundation's `cancel()` / `cancelAllOperations()`,
    /// whose `isCancelled` comes from that call (or, for a cancel held
    /// while `start()` was deciding, when `main()` begins); a second cancel
    /// of an operation already cancelling is ignored, and a cancel-all
    /// cancels every operation its queue holds. nil when neither is found:
    /// the board then says nothing about who cancelled it.
    mutating func cancelCause(of op: OperationID, queue: QueueID, addedSeq: Int?) -> Int? {
        if let index = pendingCancels.removeValue(forKey: Int32(op.index)) { return Int(index) }
        guard let addedSeq, lastOnQueue.indices.contains(queue.index) else { return nil }
        var found: Int?
        var i = Int(lastOnQueue[queue.index])
        while i >= 0 {
            let entry = self[i]
            guard entry.seq > addedSeq else { break }
            if entry.ignored == nil, case .cancelAll = entry.action { found = i }
            i = Int(entry.previousOnQueue)
        }
        return found
    }
}
