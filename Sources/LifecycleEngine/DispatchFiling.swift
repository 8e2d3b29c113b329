/// Where a run files each queue's ready operations, not yet seen
/// dispatched, in the order the queue dispatches them (`DispatchOrder`,
/// one per queue), and the sequence that says when each was filed.
///
/// While the shell hands a chunk of adds to Foundation, what is filed is
/// held (`deferFiling`) and goes into the orders only when the chunk is
/// handed over (`fileDeferred`): a scan made meanwhile must not read, and
/// put back, operations Foundation has not been given yet.
struct DispatchFiling {
    /// By queue index.
    private var orders: [DispatchOrder]
    /// What `deferFiling` holds: entries and their buckets; nil when
    /// nothing is deferred.
    private var deferred: [(entry: UInt64, bucket: UInt8)]?
    /// The last sequence given (`nextSequence`): each filing gets a new
    /// one, so that an entry filed again makes the old one stale.
    private(set) var lastSequence: UInt32 = 0

    init(queues: Int) {
        orders = Array(repeating: DispatchOrder(), count: queues)
    }

    /// A new sequence for a filing, after every one given before (it wraps
    /// only after four billion filings).
    mutating func nextSequence() -> UInt32 {
        lastSequence &+= 1
        return lastSequence
    }

    /// Files `entry` (`DispatchOrder.entry`) in `bucket` of queue `q`'s
    /// order, or holds it while filing is deferred.
    mutating func file(_ entry: UInt64, bucket: UInt8, queue q: Int) {
        if deferred != nil {
            deferred?.append((entry, bucket))
        } else {
            orders[q].push(entry, Int(bucket))
        }
    }

    /// Whether filings are held (`deferFiling`).
    var isDeferring: Bool { deferred != nil }

    /// From now on, what is filed waits for `fileDeferred`.
    mutating func deferFiling() {
        if deferred == nil { deferred = [] }
    }

    /// Files what `deferFiling` held, those `queueIfWaiting` gives a
    /// queue for (the operation is still ready and not dispatched; an
    /// entry filed again since is left out when it comes to the top, as
    /// any other), and goes on deferring or stops.
    mutating func fileDeferred(stillDeferring: Bool, queueIfWaiting: (Int) -> Int?) {
        guard var held = deferred else { return }
        deferred = nil
        for (entry, bucket) in held {
            if let q = queueIfWaiting(DispatchOrder.operation(entry)) { orders[q].push(entry, Int(bucket)) }
        }
        if stillDeferring {
            held.removeAll(keepingCapacity: true)
            deferred = held
        }
    }

    // MARK: - A scan's walk

    /// Whether queue `q`'s order holds no entry, stale ones included.
    func isEmpty(queue q: Int) -> Bool { orders[q].isEmpty }

    /// Takes the first entry of `bucket` in queue `q`'s order, nil when
    /// the bucket is empty.
    mutating func takeFirst(queue q: Int, bucket: Int) -> UInt64? {
        guard let entry = orders[q].top(bucket) else { return nil }
        orders[q].pop(bucket)
        return entry
    }

    /// Puts back an entry a scan took and passed (it is still waiting).
    mutating func putBack(_ entry: UInt64, bucket: Int, queue q: Int) {
        orders[q].push(entry, bucket)
    }
}
