import ScenarioKit

/// The order in which a run lets go of its operations.
///
/// Each `Operation` holds its dependencies strongly, so dropping the last
/// reference to the end of a chain frees it, which frees the link before
/// it, and so on: one nested `deinit` per link, and a chain of some tens of
/// thousands overflows the stack. Dropping every operation after all of
/// its dependents have been dropped means no `deinit` ever frees another
/// operation: by then nothing else holds a dependency but the run itself.
enum ReleaseOrder {
    /// The indices of `scenario`'s operations, each after every operation
    /// that depends on it (Kahn's algorithm on the reversed graph: linear,
    /// no recursion). The graph is acyclic (the validator rejects cycles);
    /// should one slip through, its operations come last, in index order,
    /// so the order still names every operation once.
    static func dependentsFirst(_ scenario: Scenario) -> [Int] {
        let count = scenario.operations.count
        var dependentCount = [Int32](repeating: 0, count: count)
        var dependencies = [[Int32]](repeating: [], count: count)
        for (i, spec) in scenario.operations.enumerated() where !spec.isBarrier {
            var seen = Set<Int>()
            for dep in spec.dependencies where dep.index != i && seen.insert(dep.index).inserted {
                dependencies[i].append(Int32(dep.index))
                dependentCount[dep.index] += 1
            }
        }
        var order: [Int] = []
        order.reserveCapacity(count)
        var ready = (0..<count).filter { dependentCount[$0] == 0 }
        while let i = ready.popLast() {
            order.append(i)
            for d in dependencies[i] {
                dependentCount[Int(d)] -= 1
                if dependentCount[Int(d)] == 0 { ready.append(Int(d)) }
            }
        }
        if order.count < count {
            var placed = [Bool](repeating: false, count: count)
            for i in order { placed[i] = true }
            order += (0..<count).filter { !placed[$0] }
        }
        return order
    }
}
