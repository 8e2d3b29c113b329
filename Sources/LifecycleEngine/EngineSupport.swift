import Foundation
import ScenarioKit

#if canImport(Glibc)
    import Glibc
#endif

/// The run's one lock: every announcement is stamped and appended under it.
///
/// An adaptive pthread mutex: critical sections are a few dozen nanoseconds,
/// so a short spin beats parking a thread on a 2-core machine. Never held
/// while waiting for anything, and never taken while a Foundation lock is
/// held (Foundation calls into opscope code only from unlocked places), so
/// calling Foundation while holding it cannot deadlock.
final class EngineLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

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

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
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
