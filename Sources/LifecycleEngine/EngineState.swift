import Foundation
@_spi(Reflection) import Swift

/// Reads whether Foundation's queue has dispatched an operation: the
/// operation's own internal state (`__state`; docs/SCENARIO-LANGUAGE.md,
/// "Dispatches, read from Foundation's state"), which goes `enqueued` → `dispatching` when the queue hands it
/// to its dispatch queue and from then on counts it against the cap.
///
/// No public API says so, and no method of the operation is called at that
/// moment, so the run looks, right after each of its calls that lets a
/// queue dispatch. The state is a stored property of
/// swift-corelibs-foundation's `Operation`, written only under the
/// operation's own lock (`__atomicLoad`); this reads it under that lock
/// too, at the offsets the runtime's reflection gives for both (the
/// standard library's `_forEachField`), read only, never written.
///
/// What it assumes is checked once, on a probe operation, before it is
/// trusted: both fields are there with the expected types, and the values
/// read at three known moments (not added, added to a suspended queue,
/// dispatched to a dispatch queue that is held) are the cases Mirror names
/// for them. On a Foundation where any of that differs, `shared` is nil
/// and the run announces each dispatch when it sees the operation start.
///
/// A run takes its reader as a parameter (`RunOptions.stateReader`, by
/// default `processDefault`: the shared one, unless the environment turns
/// it off), so that a test or a user can run without it. This file needs
/// nothing but Foundation and the standard library: the plain-Foundation
/// probes in `.ci/probes` compile it with their own code.
public struct EngineState: Sendable {
    private let stateOffset: Int
    private let lockOffset: Int
    /// The in-memory value of `dispatching`: this state and every one after
    /// it (starting, executing, finishing, finished) mean dispatched.
    private let dispatching: UInt8

    /// The reader of this process's Foundation, nil where it cannot be trusted.
    public static let shared: EngineState? = EngineState()

    private init?() {
        var state: Int?
        var lock: Int?
        // `_EachFieldOptions.classType` (a `static var`, which Swift 6 will
        // not read from here): the type is a class, offsets are its instances'.
        let classType = _EachFieldOptions(rawValue: 1 << 0)
        _ = _forEachField(of: Operation.self, options: classType) { name, offset, type, kind in
            switch String(cString: name) {
            case "__state" where kind == .enum && Self.size(of: type) == 1: state = offset
            case "__atomicLoad" where type == NSLock.self: lock = offset
            default: break
            }
            return true
        }
        guard let state, let lock else { return nil }
        stateOffset = state
        lockOffset = lock
        // The case order of Foundation's state: initialized, enqueuing,
        // enqueued, dispatching, … (its declaration), checked below.
        dispatching = 3
        guard verified() else { return nil }
    }

    /// The queue has handed `op` to its dispatch queue (or it went further).
    func isDispatched(_ op: Operation) -> Bool { raw(op) >= dispatching }

    private func raw(_ op: Operation) -> UInt8 {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(op).toOpaque())
        let lock = Unmanaged<NSLock>.fromOpaque(base.load(fromByteOffset: lockOffset, as: UnsafeRawPointer.self))
            .takeUnretainedValue()
        lock.lock()
        defer { lock.unlock() }
        return base.load(fromByteOffset: stateOffset, as: UInt8.self)
    }

    /// Three known moments of a probe operation, each value read against
    /// the case Mirror names.
    private func verified() -> Bool {
        let held = DispatchQueue(label: "opscope.engine-state-probe")
        held.suspend()
        defer { held.resume() }
        let dispatchingQueue = OperationQueue()
        dispatchingQueue.underlyingQueue = held
        let waitingQueue = OperationQueue()
        waitingQueue.isSuspended = true
        let dispatched = BlockOperation {}
        let waiting = BlockOperation {}
        guard matches(dispatched, 0, "initialized") else { return false }
        waitingQueue.addOperation(waiting)
        dispatchingQueue.addOperation(dispatched)
        let ok = matches(waiting, 2, "enqueued") && matches(dispatched, dispatching, "dispatching")
        waiting.cancel()
        waitingQueue.isSuspended = false
        return ok
    }

    private func matches(_ op: Operation, _ value: UInt8, _ name: String) -> Bool {
        raw(op) == value && Self.mirroredState(of: op) == name
    }

    private static func mirroredState(of op: Operation) -> String? {
        var mirror: Mirror? = Mirror(reflecting: op)
        while let m = mirror {
            if m.subjectType == Operation.self {
                return m.children.first { $0.label == "__state" }.map { String(describing: $0.value) }
            }
            mirror = m.superclassMirror
        }
        return nil
    }

    private static func size(of type: Any.Type) -> Int {
        func measure<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
        return _openExistential(type, do: measure)
    }
}

extension EngineState {
    /// The environment variable that turns the reader off for a whole
    /// process: `OPSCOPE_STATE_READER=off` (docs/SCENARIO-LANGUAGE.md,
    /// "Dispatches, read from Foundation's state").
    public static let environmentVariable = "OPSCOPE_STATE_READER"

    /// The reader a run takes unless told otherwise: `shared`, or nil when
    /// `environment` turns it off (`environmentVariable` set to `off`).
    public static func reader(environment: [String: String]) -> EngineState? {
        environment[environmentVariable] == "off" ? nil : shared
    }

    /// `reader(environment:)` of this process's environment, read once.
    public static let processDefault: EngineState? = reader(environment: ProcessInfo.processInfo.environment)

    /// Foundation's state of `op` as stored (0 initialized, 1 enqueuing,
    /// 2 enqueued, 3 dispatching, 4 starting, 5 executing, 6 finishing,
    /// 7 finished), read as `isDispatched` reads it: for the probes.
    func state(of op: Operation) -> UInt8 { raw(op) }

    /// The stored value of `finishing`: Foundation has been told the
    /// operation finished (its own `isFinished` is true from here on).
    static let finishing: UInt8 = 6
}
