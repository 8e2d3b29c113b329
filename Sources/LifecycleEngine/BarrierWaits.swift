/// The waits barriers add as a run's operations are added, on top of the
/// declared ones (`DependencyGraph`): a barrier waits for the unfinished
/// operations of its queue added before it, and an operation added behind
/// a waiting barrier waits for it. Empty, and never looked at on the hot
/// path, in a run without barriers.
///
/// Each wait is kept both ways: by the waiting operation (`waits(of:)`,
/// for the stuck reasons, kept for good) and by the one waited for
/// (`finished`, whose entry is taken when it finishes, so that each
/// waiter is released by it once).
struct BarrierWaits {
    /// By waiting operation, what it waits for, in the order it came to wait.
    private var waitsBy: [Int32: [Int32]] = [:]
    /// By operation waited for, who waits for it, in the order they came.
    private var dependentsOf: [Int32: [Int32]] = [:]

    /// Barrier `b` waits for `operations` (those of its queue before it,
    /// unfinished).
    mutating func barrier(_ b: Int32, waitsFor operations: [Int32]) {
        guard !operations.isEmpty else { return }
        waitsBy[b, default: []] += operations
        for m in operations { dependentsOf[m, default: []].append(b) }
    }

    /// Operation `i` waits for barrier `b` of its queue.
    mutating func operation(_ i: Int32, waitsFor b: Int32) {
        waitsBy[i, default: []].append(b)
        dependentsOf[b, default: []].append(i)
    }

    /// Operation `i` finished: who waited for it through a barrier's wait,
    /// taken (nil when none).
    mutating func finished(_ i: Int32) -> [Int32]? {
        dependentsOf.isEmpty ? nil : dependentsOf.removeValue(forKey: i)
    }

    /// What operation `i` came to wait for through barriers, in order.
    func waits(of i: Int32) -> [Int32] { waitsBy[i] ?? [] }

    /// Who still waits for operation `i` through barriers, in order.
    func dependents(of i: Int32) -> [Int32] { dependentsOf[i] ?? [] }
}
