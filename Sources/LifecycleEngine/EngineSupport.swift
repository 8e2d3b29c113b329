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

/// Scenario time: real elapsed time × speed, minus paused spans.
///
/// Kept as an anchor (scenario time at a real instant) that is moved on
/// every pause, resume and speed change, so reading it is one subtraction
/// and one multiplication. Only read and changed under the run's lock,
/// with a real-time reading taken under that lock, so stamped times never
/// go backwards.
///
/// Two things stop it, independently: the user's pause, and the hold of a
/// run that waits for the user after a stall (`StallPolicy.waitsForUser`).
/// It moves only when neither holds.
struct ScenarioClock {
    private(set) var speed: Double
    /// Paused by the user (or a caption in lesson mode).
    private(set) var isPaused: Bool
    /// Held while a stalled run waits for the user.
    private(set) var isHeld = false
    private(set) var isRunning = false
    private var anchorReal: UInt64 = 0
    private var anchorScenario: Double = 0

    init(speed: Double, paused: Bool) {
        self.speed = speed > 0 ? speed : 1
        self.isPaused = paused
    }

    /// Paused or held: scenario time does not move.
    var isStopped: Bool { isPaused || isHeld }

    @inline(__always) func now(_ real: UInt64) -> Double {
        if !isRunning || isStopped { return anchorScenario }
        return anchorScenario + Double(real &- anchorReal) * 1e-9 * speed
    }

    mutating func start(_ real: UInt64) {
        isRunning = true
        anchorReal = real
    }

    mutating func pause(_ real: UInt64) { set(\.isPaused, true, real) }
    mutating func resume(_ real: UInt64) { set(\.isPaused, false, real) }
    mutating func hold(_ real: UInt64) { set(\.isHeld, true, real) }
    mutating func release(_ real: UInt64) { set(\.isHeld, false, real) }

    /// Sets one of the two stops at `real`: the reading freezes when the
    /// first comes on, and moves again from there when the last goes off.
    private mutating func set(_ stop: WritableKeyPath<ScenarioClock, Bool>, _ on: Bool, _ real: UInt64) {
        guard self[keyPath: stop] != on else { return }
        if on && !isStopped {
            anchorScenario = now(real)
            anchorReal = real
        }
        self[keyPath: stop] = on
        if !on && !isStopped { anchorReal = real }
    }

    mutating func setSpeed(_ newSpeed: Double, _ real: UInt64) {
        guard newSpeed > 0, newSpeed.isFinite else { return }
        anchorScenario = now(real)
        anchorReal = real
        speed = newSpeed
    }
}

/// Min-heap of timers that end asynchronous operations, by scenario time
/// (ties in the order they were set).
struct TimerHeap {
    struct Entry {
        var due: Double
        var order: Int
        var op: Int32
    }

    private var items: [Entry] = []
    private var counter = 0

    var isEmpty: Bool { items.isEmpty }
    var first: Entry? { items.first }

    private static func less(_ a: Entry, _ b: Entry) -> Bool {
        a.due < b.due || (a.due == b.due && a.order < b.order)
    }

    mutating func push(due: Double, op: Int32) {
        counter += 1
        items.append(Entry(due: due, order: counter, op: op))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if Self.less(items[i], items[parent]) {
                items.swapAt(i, parent)
                i = parent
            } else { break }
        }
    }

    mutating func pop() -> Entry? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count && Self.less(items[l], items[m]) { m = l }
            if r < items.count && Self.less(items[r], items[m]) { m = r }
            if m == i { break }
            items.swapAt(i, m)
            i = m
        }
        return top
    }

    mutating func removeAll() { items.removeAll() }
}

extension PriorityLevel {
    var foundation: Operation.QueuePriority {
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
    var foundation: QualityOfService {
        switch self {
        case .userInteractive: .userInteractive
        case .userInitiated: .userInitiated
        case .default: .default
        case .utility: .utility
        case .background: .background
        }
    }
}
