import Foundation
import RunEvents
import ScenarioKit
import Synchronization

/// KVO's `NSKeyValueObservingOptions`, for the run's operations and queues.
public struct ObservationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Call the handler at once with the current value.
    public static let initial = ObservationOptions(rawValue: 1)
    /// Include the value before the change.
    public static let old = ObservationOptions(rawValue: 2)
    /// Include the value after the change.
    public static let new = ObservationOptions(rawValue: 4)
    /// Also call the handler just before each change (`isPrior` true).
    public static let prior = ObservationOptions(rawValue: 8)
}

/// KVO's change dictionary, as a value. `seq` and `time` are the stamp of
/// the announcement in the run's event stream (0 for `.initial`).
public struct ObservedChange: Sendable, Hashable {
    public var oldValue: KeyValue?
    public var newValue: KeyValue?
    public var isPrior: Bool
    public var isInitial: Bool
    public var seq: Int
    public var time: Double
}

/// Keeps an observation alive; observing stops when it is invalidated or
/// deinitialised (like `NSKeyValueObservation`).
///
/// Sendable: the run it observes is held weakly behind a lock, so that
/// `invalidate()` from one thread and the token's end on another take it
/// once between them.
public final class ObservationToken: Sendable {
    private struct Held {
        weak var core: RunCore?
    }

    private let held: Mutex<Held>
    private let id: Int
    private let key: Int

    init(core: RunCore, id: Int, key: Int) {
        held = Mutex(Held(core: core))
        self.id = id
        self.key = key
    }

    public func invalidate() {
        let core = held.withLock { held -> RunCore? in
            defer { held.core = nil }
            return held.core
        }
        guard let core else { return }
        core.lock.withLock { core.observation.remove(id: id, key: key) }
    }

    deinit { invalidate() }
}

/// One of the run's operations, observable by key.
public struct ObservedOperation: Sendable {
    public let id: OperationID
    let core: RunCore

    /// Observe `key` of this operation. The handler is called on the thread
    /// that made the change, right after the change is stamped (not under
    /// the run's lock: it may call into the run).
    public func observe(
        _ key: OperationKey, options: ObservationOptions = [.new],
        _ handler: @escaping @Sendable (ObservedChange) -> Void
    ) -> ObservationToken {
        core.addObserver(
            key: ObserverRegistry.key(operation: id.index, key), options: options, handler: handler
        ) { core in core.currentValue(operation: id.index, key) }
    }

    public var isReady: Bool { core.currentValue(operation: id.index, .isReady).boolValue ?? false }
    public var isExecuting: Bool { core.currentValue(operation: id.index, .isExecuting).boolValue ?? false }
    public var isFinished: Bool { core.currentValue(operation: id.index, .isFinished).boolValue ?? false }
    public var isCancelled: Bool { core.currentValue(operation: id.index, .isCancelled).boolValue ?? false }
    /// The thread it ran on (its main(), its blocks, its async start), once started.
    public var thread: ThreadTag? { core.threadTag(of: id.index) }
}

/// One of the run's queues, observable by key.
public struct ObservedQueue: Sendable {
    public let id: QueueID
    let core: RunCore

    public func observe(
        _ key: QueueKey, options: ObservationOptions = [.new],
        _ handler: @escaping @Sendable (ObservedChange) -> Void
    ) -> ObservationToken {
        core.addObserver(key: ObserverRegistry.key(queue: id.index, key), options: options, handler: handler) {
            core in core.currentValue(queue: id.index, key)
        }
    }

    public var isSuspended: Bool { core.currentValue(queue: id.index, .isSuspended).boolValue ?? false }
    public var maxConcurrentOperationCount: Int {
        core.currentValue(queue: id.index, .maxConcurrentOperationCount).intValue ?? -1
    }
    public var operationCount: Int { core.currentValue(queue: id.index, .operationCount).intValue ?? 0 }
}

/// Observers by (object, key). `count` is read on every announcement so
/// that a run with no observers pays one comparison.
struct ObserverRegistry {
    typealias Handler = @Sendable (ObservedChange) -> Void
    struct Entry {
        var id: Int
        var options: ObservationOptions
        var handler: Handler
    }

    private(set) var count = 0
    private var nextID = 0
    private var byKey: [Int: [Entry]] = [:]

    static func key(operation: Int, _ key: OperationKey) -> Int {
        operation << 4 | OperationKey.allCases.firstIndex(of: key)!
    }

    static func key(queue: Int, _ key: QueueKey) -> Int {
        queue << 4 | 8 | QueueKey.allCases.firstIndex(of: key)!
    }

    mutating func add(key: Int, options: ObservationOptions, handler: @escaping Handler) -> Int {
        nextID += 1
        byKey[key, default: []].append(Entry(id: nextID, options: options, handler: handler))
        count += 1
        return nextID
    }

    mutating func remove(id: Int, key: Int) {
        guard var list = byKey[key], let at = list.firstIndex(where: { $0.id == id }) else { return }
        list.remove(at: at)
        byKey[key] = list.isEmpty ? nil : list
        count -= 1
    }

    /// Under the run's lock: queues the calls for one announcement.
    func collect(_ kind: LifecycleEvent.Kind, seq: Int, time: Double, into calls: inout [() -> Void]) {
        let key: Int
        let old: KeyValue?
        let new: KeyValue
        switch kind {
        case .operation(let id, let k, let o, let n):
            key = Self.key(operation: id.index, k)
            old = o
            new = n
        case .queue(let id, let k, let o, let n):
            key = Self.key(queue: id.index, k)
            old = o
            new = n
        default:
            return
        }
        guard let list = byKey[key] else { return }
        for entry in list {
            let opts = entry.options
            let handler = entry.handler
            if opts.contains(.prior) {
                let change = ObservedChange(
                    oldValue: opts.contains(.old) ? old : nil, newValue: nil, isPrior: true,
                    isInitial: false, seq: seq, time: time)
                calls.append { handler(change) }
            }
            let change = ObservedChange(
                oldValue: opts.contains(.old) ? old : nil, newValue: opts.contains(.new) ? new : nil,
                isPrior: false, isInitial: false, seq: seq, time: time)
            calls.append { handler(change) }
        }
    }
}

extension RunCore {
    func addObserver(
        key: Int, options: ObservationOptions, handler: @escaping ObserverRegistry.Handler,
        current: (RunCore) -> KeyValue
    ) -> ObservationToken {
        let id = lock.withLock { observation.add(key: key, options: options, handler: handler) }
        if options.contains(.initial) {
            let value = current(self)
            handler(
                ObservedChange(
                    oldValue: nil, newValue: options.contains(.new) ? value : nil, isPrior: false,
                    isInitial: true, seq: 0, time: 0))
        }
        return ObservationToken(core: self, id: id, key: key)
    }

    func currentValue(operation i: Int, _ key: OperationKey) -> KeyValue {
        withLockedModel { model in model.value(ofOperation: i, key) }
    }

    func currentValue(queue q: Int, _ key: QueueKey) -> KeyValue {
        withLockedModel { model in model.value(ofQueue: q, key) }
    }

    func threadTag(of i: Int) -> ThreadTag? { withLockedModel { model in model.threadTag(of: i) } }
}
