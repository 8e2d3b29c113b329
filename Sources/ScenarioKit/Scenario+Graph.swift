extension Scenario {
    /// `op`'s dependencies' path to `target`: `[op, x, …, target]`, the
    /// shortest through `after` clauses; nil when `op` does not depend on
    /// it, directly or through others.
    public func dependencyPath(from op: OperationID, to target: OperationID) -> [OperationID]? {
        var previous: [OperationID: OperationID] = [:]
        var frontier = [op]
        var seen: Set<OperationID> = [op]
        while !frontier.isEmpty {
            var next: [OperationID] = []
            for current in frontier {
                for dep in self[operation: current].dependencies where contains(dep) {
                    guard seen.insert(dep).inserted else { continue }
                    previous[dep] = current
                    if dep == target {
                        var path = [dep]
                        var at = dep
                        while let p = previous[at] {
                            path.append(p)
                            at = p
                        }
                        return path.reversed()
                    }
                    next.append(dep)
                }
            }
            frontier = next
        }
        return nil
    }
}
