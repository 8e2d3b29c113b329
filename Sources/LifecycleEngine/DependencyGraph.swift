import ScenarioKit

/// The declared dependencies of a scenario's operations, both ways: what
/// each operation waits for and which operations wait for it.
///
/// Two flat tables, each row a range of one array (compressed rows), not
/// an array per operation: a million operations with one dependency each
/// would otherwise hold two million small arrays, 96 bytes an operation,
/// where these take 16. Fixed once made: the waits a run adds as it goes
/// (an operation behind a barrier of its queue) are the model's own.
///
/// Only what Foundation would record: a barrier's `after` names none (it
/// waits for its queue, not for names), an operation never waits for
/// itself, and a name given twice counts once, as `addDependency` does.
struct DependencyGraph: Sendable {
    /// Row `i` of `waitList` is `waitList[waitStarts[i]..<waitStarts[i + 1]]`.
    private let waitStarts: [UInt32]
    /// What each operation waits for, in the order its `after` names them.
    private let waitList: [Int32]
    private let dependentStarts: [UInt32]
    /// Who waits for each operation, in increasing index order.
    private let dependentList: [Int32]

    init(_ scenario: Scenario) {
        let operations = scenario.operations
        var waitStarts: [UInt32] = []
        waitStarts.reserveCapacity(operations.count + 1)
        var waitList: [Int32] = []
        waitList.reserveCapacity(operations.reduce(0) { $0 + ($1.isBarrier ? 0 : $1.dependencies.count) })
        var dependentCounts = [UInt32](repeating: 0, count: operations.count + 1)
        for (i, spec) in operations.enumerated() {
            waitStarts.append(UInt32(waitList.count))
            guard !spec.isBarrier else { continue }
            let rowStart = waitList.count
            // A look along the row for a few dependencies; a set for a long one.
            var seen: Set<Int>?
            for dependency in spec.dependencies where dependency.index != i {
                let d = dependency.index
                if seen == nil && waitList.count - rowStart >= 16 {
                    seen = Set(waitList[rowStart...].map(Int.init))
                }
                guard !(seen?.contains(d) ?? waitList[rowStart...].contains(Int32(d))) else { continue }
                seen?.insert(d)
                waitList.append(Int32(d))
                dependentCounts[d + 1] += 1
            }
        }
        precondition(waitList.count < Int(UInt32.max), "more dependencies than a run can index")
        waitStarts.append(UInt32(waitList.count))
        // Counting sort: each dependency's row, filled in dependent order.
        for i in 0..<operations.count { dependentCounts[i + 1] += dependentCounts[i] }
        var next = dependentCounts
        var dependentList = [Int32](repeating: 0, count: waitList.count)
        for i in 0..<operations.count {
            for k in Int(waitStarts[i])..<Int(waitStarts[i + 1]) {
                let d = Int(waitList[k])
                dependentList[Int(next[d])] = Int32(i)
                next[d] += 1
            }
        }
        self.waitStarts = waitStarts
        self.waitList = waitList
        dependentStarts = dependentCounts
        self.dependentList = dependentList
    }

    var operationCount: Int { waitStarts.count - 1 }

    /// What operation `i` waits for, in the order its `after` names them.
    func dependencies(of i: Int) -> ArraySlice<Int32> {
        waitList[Int(waitStarts[i])..<Int(waitStarts[i + 1])]
    }

    /// The operations that wait for operation `i`, in increasing index order.
    func dependents(of i: Int) -> ArraySlice<Int32> {
        dependentList[Int(dependentStarts[i])..<Int(dependentStarts[i + 1])]
    }

    /// Whether some operation waits for operation `i`.
    func hasDependents(_ i: Int) -> Bool { dependentStarts[i] != dependentStarts[i + 1] }
}
