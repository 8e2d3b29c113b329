import Foundation
import FoundationRules
import ScenarioKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The run's one lock: every announcement is stamped and appended under it.
///
/// An adaptive pthread mutex: critical sections are a few dozen nanoseconds,
/// so a short spin beats parking a thread on a 2-core machine. Innermost:
/// never held while waiting for anything, and never taken while a lock of
/// Foundation's is held (Foundation calls into opscope code only from
/// unlocked places: swift-corelibs-foundation's `_schedule` dispatches
/// `start()` asynchronously, `cancelAllOperations()` cancels a copy of its
/// list outside its lock, a finish calls the completion block on another
/// queue). So the few Foundation calls made while holding it (each says
/// why at its line) cannot deadlock, as long as none of them calls back
/// into the run on the same thread: `EngineLockTests` runs every one of
/// them under load.
///
/// In debug builds it knows its owner, and the shell checks its contract
/// at run time, as SwiftNIO's `preconditionInEventLoop` does: what must run
/// under it asserts `assertHeld()`, and every way in from Foundation or
/// from a caller, and every Foundation call made outside it, asserts
/// `assertNotHeld()` (a call that came back into the run while it held
/// the lock fails there, not in a hang).
final class EngineLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #if DEBUG
        /// The owning thread's `pthread_self()`, 0 when free. Written only
        /// by the owner, so a thread reads its own writes: the check needs
        /// no ordering beyond that.
        private let owner = Atomic<UInt>(0)
    #endif

    init() {
        mutex = .allocate(capacity: 1)
        var attr = pthread_mutexattr_t()
        pthread_mutexattr_init(&attr)
        pthread_mutexattr_settype(&attr, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        pthread_mutex_init(mutex, &attr)
        pthread_mutexattr_destroy(&attr)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func lock() {
        #if DEBUG
            precondition(!isHeldHere, "the run's lock taken again on the thread that holds it")
        #endif
        pthread_mutex_lock(mutex)
        #if DEBUG
            owner.store(UInt(pthread_self()), ordering: .relaxed)
        #endif
    }

    @inline(__always) func unlock() {
        #if DEBUG
            precondition(isHeldHere, "the run's lock released by a thread that does not hold it")
            owner.store(0, ordering: .relaxed)
        #endif
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` under the lock.
    @inline(__always) func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    #if DEBUG
        private var isHeldHere: Bool { owner.load(ordering: .relaxed) == UInt(pthread_self()) }
    #endif

    /// Debug builds: traps unless the calling thread holds the lock.
    @inline(__always) func assertHeld(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            precondition(isHeldHere, "must hold the run's lock", file: file, line: line)
        #endif
    }

    /// Debug builds: traps if the calling thread holds the lock.
    @inline(__always) func assertNotHeld(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            precondition(!isHeldHere, "must not hold the run's lock", file: file, line: line)
        #endif
    }
}

/// The calling thread as the run tells threads apart, read before the
/// run's lock is taken: its `pthread_self()`, and whether it is the main
/// thread. Foundation's `Thread.isMainThread` makes two system calls on
/// Linux (`getpid` and `gettid`); asked on every fact of a flat million, it
/// was a measurable share of each engine thread's time. So each thread asks
/// it once and keeps the answer in a thread-specific slot of its own.
enum CurrentThread {
    /// 0 (unset): not asked yet; 1: not the main thread; 2: the main thread.
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "no thread-specific slot left for opscope")
        return key
    }()

    static var isMain: Bool {
        if let marked = pthread_getspecific(slot) { return Int(bitPattern: marked) == 2 }
        let isMain = Thread.isMainThread
        pthread_setspecific(slot, UnsafeRawPointer(bitPattern: isMain ? 2 : 1))
        return isMain
    }

    static var identity: RunModel.ThreadIdentity {
        RunModel.ThreadIdentity(id: UInt(pthread_self()), isMain: isMain)
    }
}

/// Monotonic real time in nanoseconds (vDSO, ~20 ns).
@inline(__always) func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

extension PriorityLevel {
    package var foundation: Operation.QueuePriority {
        switch self {
        case .veryLow: .veryLow
        case .low: .low
        case .normal: .normal
        case .high: .high
        case .veryHigh: .veryHigh
        }
    }
}

extension QoSLevel {
    package var foundation: QualityOfService {
        switch self {
        case .userInteractive: .userInteractive
        case .userInitiated: .userInitiated
        case .default: .default
        case .utility: .utility
        case .background: .background
        }
    }
}
