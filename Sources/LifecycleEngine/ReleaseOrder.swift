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
    /// The indices of `graph`'s operations, each after every operation
    /// that depends on it (Kahn's algorithm on the reversed graph: linear,
    /// no recursion). The graph is acyclic but for cycles an `at … cancel`
    /// breaks (the validator rejects every other); a cycle's operations
    /// come last, in index order, so the order still names every operation
    /// once.
    static func dependentsFirst(_ graph: DependencyGraph) -> [Int] {
        let count = graph.operationCount
        var dependentCount = (0..<count).map { Int32(graph.dependents(of: $0).count) }
        var order: [Int] = []
        order.reserveCapacity(count)
        var ready = (0..<count).filter { dependentCount[$0] == 0 }
        while let i = ready.popLast() {
            order.append(i)
            for d in graph.dependencies(of: i) {
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

    static func dependentsFirst(_ scenario: Scenario) -> [Int] { dependentsFirst(DependencyGraph(scenario)) }
}

extension RunModel {
    /// Whether the run may let go of operation `i`'s object once
    /// Foundation has processed its finish: nothing of Foundation's can
    /// reach it then but its queue's own references, which Foundation
    /// drops itself.
    ///
    /// Foundation reaches an operation from each of its dependencies
    /// (`__downDependencies`, unretained), and walks that set when the
    /// dependency finishes: one cancelled before it started can finish
    /// before its dependencies, and must stay. One that ran started after
    /// all of them had finished and emptied their sets. And each
    /// operation holds its dependencies strongly, so one that others wait
    /// for is let go of only at the end, in `ReleaseOrder`: freed from its
    /// dependents' `deinit`, a chain would free itself recursively. Gates
    /// stay too: their dependents may be made after them.
    func mayLetGo(_ i: Int) -> Bool {
        // One started by hand is kept: a later `start` calls it again.
        records[i].phase == .finished && !records[i].cancelled && facts.kinds[i] != .barrier
            && !facts.graph.hasDependents(i) && !facts.isByHand(i)
    }
}
