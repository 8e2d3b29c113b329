import FoundationRules
import RunEvents
import ScenarioKit

/// Dispatches, as the run observes them: the moment a queue hands an
/// operation to its dispatch queue, read from Foundation's own state
/// (`EngineState`) right after each call that lets a queue dispatch, or,
/// at the latest, when the operation's `start()` is called.
///
/// A call that lets queues dispatch (an add, a finish, a cancel, a resume,
/// a cap raised) gives back a `DispatchScan`: the queues to look at and the
/// operations it made ready. The shell makes the call into Foundation and
/// then hands the scan back with a way to read the engine's state. Only
/// what Foundation really did is announced: the order the model keeps of a
/// queue's ready operations (`DispatchOrder`) only says where to look
/// first, so a scan stops early on a long queue; whatever it misses is
/// announced at the operation's start.
extension RunModel {
    /// Where to look for dispatches after one call into Foundation.
    struct DispatchScan: Equatable {
        /// Queues the call let dispatch (each once).
        var queues: [Int32] = []
        /// Operations the call made ready: looked at whatever the order says
        /// (Foundation releases several dependents in the order of a set).
        var newlyReady: [Int32] = []

        var isEmpty: Bool { queues.isEmpty }

        mutating func add(queue q: Int) {
            if !queues.contains(Int32(q)) { queues.append(Int32(q)) }
        }

        mutating func add(ready i: Int, on q: Int) {
            add(queue: q)
            newlyReady.append(Int32(i))
        }

        mutating func merge(_ other: DispatchScan) {
            for q in other.queues { add(queue: Int(q)) }
            newlyReady += other.newlyReady
        }
    }

    /// A scan looks at the ready operations of a queue in the order it
    /// dispatches them and stops after this many it finds not dispatched.
    static let scanStopsAfterWaiting = 4  // at most 4: the scan keeps them in a tuple

    /// Announces the dispatches `scan` finds: `isDispatched(i)` reads the
    /// engine's state of operation `i`.
    mutating func observeDispatches(_ scan: DispatchScan, real: UInt64, isDispatched: (Int) -> Bool) {
        guard !scan.isEmpty, !log.isClosed else { return }
        let t = stamp(real)
        for q32 in scan.queues {
            let q = Int(q32)
            guard !dispatch.isEmpty(queue: q) else { continue }
            // The waiting ones it passes go back where they were.
            var keep = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            var keptBuckets = (0, 0, 0, 0)
            var waiting = 0
            buckets: for bucket in 0..<DispatchOrder.buckets {
                while let entry = dispatch.takeFirst(queue: q, bucket: bucket) {
                    let i = DispatchOrder.operation(entry)
                    guard isUndispatched(i, filedAs: entry, in: bucket) else { continue }
                    if isDispatched(i) {
                        dispatched(i, t)
                        continue
                    }
                    switch waiting {
                    case 0: (keep.0, keptBuckets.0) = (entry, bucket)
                    case 1: (keep.1, keptBuckets.1) = (entry, bucket)
                    case 2: (keep.2, keptBuckets.2) = (entry, bucket)
                    default: (keep.3, keptBuckets.3) = (entry, bucket)
                    }
                    waiting += 1
                    if waiting >= Self.scanStopsAfterWaiting { break buckets }
                }
            }
            if waiting > 0 { dispatch.putBack(keep.0, bucket: keptBuckets.0, queue: q) }
            if waiting > 1 { dispatch.putBack(keep.1, bucket: keptBuckets.1, queue: q) }
            if waiting > 2 { dispatch.putBack(keep.2, bucket: keptBuckets.2, queue: q) }
            if waiting > 3 { dispatch.putBack(keep.3, bucket: keptBuckets.3, queue: q) }
        }
        for i32 in scan.newlyReady {
            let i = Int(i32)
            if records[i].phase == .ready && !records[i].dispatched && facts.kinds[i] != .barrier && isDispatched(i) {
                dispatched(i, t)
            }
        }
    }

    /// Operation `i`'s `start()` was called: the queue dispatched it, if no
    /// scan saw that yet. One that no queue holds (started by hand) was
    /// never dispatched.
    mutating func startCalled(_ i: Int, _ t: Double) {
        let phase = records[i].phase
        guard !records[i].dispatched, phase == .pending || phase == .ready else { return }
        dispatched(i, t)
    }

    private mutating func dispatched(_ i: Int, _ t: Double) {
        records[i].dispatched = true
        let q = Int(facts.queueOf[i])
        if records[i].phase == .ready {
            queues[q].readyWaiting -= 1
            queues[q].dispatchedWaiting += 1
        }
        emit(.dispatched(OperationID(i)), t)
    }

    private func isUndispatched(_ i: Int, filedAs entry: UInt64, in bucket: Int) -> Bool {
        let r = records[i]
        return r.phase == .ready && !r.dispatched && Int(r.bucket) == bucket
            && r.bucketSeq == DispatchOrder.sequence(entry)
    }

    // MARK: - The order of a queue's ready operations

    /// Files operation `i` at the end of `bucket`, as Foundation's queue
    /// does at an add or a priority change that moves it.
    mutating func file(_ i: Int, in bucket: Int) {
        records[i].bucket = UInt8(bucket)
        records[i].bucketSeq = dispatch.nextSequence()
        if records[i].phase == .ready { enterDispatchOrder(i) }
    }

    /// A ready operation, not yet dispatched, joins its queue's order.
    mutating func enterDispatchOrder(_ i: Int) {
        guard facts.kinds[i] != .barrier, !records[i].dispatched else { return }
        let entry = DispatchOrder.entry(sequence: records[i].bucketSeq, operation: i)
        dispatch.file(entry, bucket: records[i].bucket, queue: Int(facts.queueOf[i]))
    }

    /// From now on, what joins a queue's order waits for `fileDeferred`:
    /// the shell announces a chunk of adds before it hands them to
    /// Foundation one by one, and a scan made meanwhile (after a finish on
    /// a worker) would read, and put back, operations Foundation has not
    /// been given yet, finish after finish.
    mutating func deferFiling() { dispatch.deferFiling() }

    /// Files what `deferFiling` held (an entry filed again since is left
    /// out when it comes to the top, as any other), and goes on deferring
    /// or stops.
    mutating func fileDeferred(stillDeferring: Bool) {
        // The closure reads its own references to the arrays, taken before
        // `dispatch` is changed: never the model itself, which is being
        // changed then.
        dispatch.fileDeferred(stillDeferring: stillDeferring) { [records, queueOf = facts.queueOf] i in
            records[i].phase == .ready && !records[i].dispatched ? Int(queueOf[i]) : nil
        }
    }

    /// The bucket Foundation files operation `i` under when it is added
    /// (`PriorityRule.filing`, with its queue's limit at that moment).
    func bucketAtAdd(_ i: Int) -> Int {
        let limit = queues[Int(facts.queueOf[i])].limit
        let filing = PriorityRule.filing(
            explicit: records[i].explicitPriority, qos: scenario.operations[i].qos, limitAtAdd: limit)
        return DispatchBucket(filing.level).rawValue
    }

    /// A priority change as Foundation's `queuePriority` setter makes it
    /// (`PriorityRule.change`): the operation moves to the end of the new
    /// bucket only when it is still filed under the one the change looks
    /// in. Returns whether Foundation changed anything.
    mutating func changePriority(_ i: Int, to level: PriorityLevel) -> Bool {
        let r = records[i]
        let place: PriorityRule.Place
        switch r.phase {
        case .notAdded, .finished: place = .outsideQueue
        case .pending, .ready:
            place = .inQueue(filedUnder: r.dispatched ? nil : DispatchBucket(rawValue: Int(r.bucket))?.level)
        case .executing: place = .inQueue(filedUnder: nil)
        }
        let change = PriorityRule.change(
            to: level, explicit: r.explicitPriority, qos: scenario.operations[i].qos, place: place)
        guard change != .nothing else { return false }
        records[i].explicitPriority = level
        if change == .moved { file(i, in: DispatchBucket(level).rawValue) }
        return true
    }
}

/// The ready, not yet dispatched operations of one queue, in the order
/// its `_schedule` walks them (`DispatchRule.precedes`): bucket by bucket
/// (`DispatchBucket`, its raw value the heap's index), and in each bucket
/// in the order they were filed there. A heap
/// per bucket, of entries that say when the operation was filed; an entry
/// whose operation was dispatched, started, finished or filed again is
/// dropped when it comes to the top.
struct DispatchOrder {
    static let buckets = DispatchBucket.allCases.count
    private var heaps = [[UInt64]](repeating: [], count: buckets)

    static func entry(sequence: UInt32, operation: Int) -> UInt64 {
        UInt64(sequence) << 32 | UInt64(UInt32(truncatingIfNeeded: operation))
    }

    static func operation(_ entry: UInt64) -> Int { Int(UInt32(truncatingIfNeeded: entry)) }
    static func sequence(_ entry: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: entry >> 32) }

    func top(_ bucket: Int) -> UInt64? { heaps[bucket].first }

    /// Entries in all buckets, stale ones included.
    private(set) var count = 0
    var isEmpty: Bool { count == 0 }

    mutating func push(_ entry: UInt64, _ bucket: Int) {
        count += 1
        heaps[bucket].append(entry)
        var child = heaps[bucket].count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heaps[bucket][child] < heaps[bucket][parent] else { break }
            heaps[bucket].swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop(_ bucket: Int) {
        guard !heaps[bucket].isEmpty else { return }
        count -= 1
        let last = heaps[bucket].removeLast()
        guard !heaps[bucket].isEmpty else { return }
        heaps[bucket][0] = last
        var parent = 0
        let count = heaps[bucket].count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && heaps[bucket][right] < heaps[bucket][left] ? right : left
            guard heaps[bucket][child] < heaps[bucket][parent] else { break }
            heaps[bucket].swapAt(child, parent)
            parent = child
        }
    }
}
