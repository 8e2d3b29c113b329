#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a `pthread_mutex_t`: `Synchronization.Mutex`'s shape,
/// for state that two threads of opscope's own share outside the engine
/// (a trace's output and the timer that writes it out).
///
/// Not `Mutex`: the thread sanitizer CI runs does not see `Mutex` order
/// its holders on Linux (it reported a race between two threads that each
/// held the same one), while it follows a pthread mutex, as it does the
/// engine's lock (`EngineLock`).
package final class PosixMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// `withLock`, unless another thread holds the lock now: nil then.
    package func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
