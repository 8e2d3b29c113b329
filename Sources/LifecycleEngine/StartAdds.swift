import ScenarioKit

/// The operations the run's start adds (those no `add` action adds
/// later), in file order, and how far the start is with them: how many it
/// announced (`next`) and how many of those it handed to Foundation
/// (`handedOver`). Both only grow, and never pass each other or the end:
/// `handedOver ≤ next ≤ count`.
struct StartAdds {
    /// The operations, in file order.
    private let order: [Int32]
    /// The start batches (`Scenario.startBatches` index) by the operation
    /// their one `addOperations` call begins with.
    private let batchAt: [Int32: Int]
    /// How many the start announced.
    private(set) var next = 0
    /// How many of those it handed to Foundation.
    private(set) var handedOver = 0

    init(_ scenario: Scenario) {
        order = scenario.addedAtStart.map { Int32($0.index) }
        var batchAt: [Int32: Int] = [:]
        for (op, b) in scenario.startBatchBeginning { batchAt[Int32(op.index)] = b }
        self.batchAt = batchAt
    }

    /// How many operations the start adds.
    var count: Int { order.count }

    /// Whether every one was announced.
    var isDone: Bool { next >= order.count }

    /// The next operation to announce, nil when done.
    var nextOperation: Int? { next < order.count ? Int(order[next]) : nil }

    /// The next `n` to announce (fewer at the end).
    func upcoming(_ n: Int) -> ArraySlice<Int32> { order[next..<min(next + n, order.count)] }

    /// The start batch (`Scenario.startBatches` index) operation `i` begins.
    func batch(beginningWith i: Int) -> Int? { batchAt.isEmpty ? nil : batchAt[Int32(i)] }

    /// `n` more were announced (never past the end).
    mutating func announced(_ n: Int) {
        assert(n >= 0 && next + n <= order.count, "announced past the start's adds")
        next = min(next + max(n, 0), order.count)
    }

    /// What was announced is now handed to Foundation.
    mutating func handOver() { handedOver = next }

    /// How far the start is in handing its operations to Foundation.
    var progress: BuildProgress { BuildProgress(handedOver: handedOver, total: order.count) }
}
