import ScenarioKit

/// Which node of a folded or filtered graph stands for each operation
/// (`GraphLayout(scenario:drawnAs:)`). A fold gathers into its root's node
/// what waits for the root alone: every operation whose every wait (an
/// `after` clause or the barrier rule) is on the root or on one gathered,
/// that is, every path to it from an operation that waits for nothing
/// goes through the root (the root dominates it). An operation that also
/// waits for one outside the fold stays outside, with its edges, so the
/// folded graph says no wait the file does not have. A filter hides
/// operations, and the edges through them with them.
///
/// Folds are taken in dependency order (by layer, then scenario order), so
/// a root that an earlier fold gathered folds nothing of its own: all it
/// dominates, the earlier root dominates too. The folded graph stays
/// acyclic: an edge from outside a fold can only end at its root (what a
/// member waits for is in the fold), so a cycle through two folds would
/// be one through their roots in the graph itself.
public enum GraphFolds {
    /// Per operation, the operation whose node stands for it, or nil when
    /// hidden; nil for the whole when nothing is folded or hidden.
    /// - Parameters:
    ///   - full: the layout of the whole graph (for its layers and reach).
    ///   - folds: the roots folded; a hidden root folds nothing.
    ///   - isShown: whether the filter lets an operation show (nil: all do).
    public static func drawnAs(
        full: GraphLayout, folds: Set<OperationID>, isShown: ((OperationID) -> Bool)?
    ) -> [OperationID?]? {
        let n = full.layerOf.count
        guard !folds.isEmpty || isShown != nil else { return nil }
        var drawn: [OperationID?] = (0..<n).map { i in
            let op = OperationID(i)
            return isShown?(op) ?? true ? op : nil
        }
        let roots = folds.filter { $0.index >= 0 && $0.index < n }.sorted {
            let (a, b) = (full.layerOf[$0.index], full.layerOf[$1.index])
            return a != b ? a < b : $0 < $1
        }
        var inFold = [Bool](repeating: false, count: n)
        for root in roots where drawn[root.index] == root {
            // What waits for the root, in dependency order: an operation
            // joins when everything it waits for is the root or has joined.
            let reached = full.reachMask(from: root, upstream: false)
            // By layer, then index: bucketed, not sorted (a fold near the
            // start of a large graph reaches most of it).
            var byLayer = [[Int]](repeating: [], count: full.layers.count)
            for i in 0..<n where reached[i] && full.layerOf[i] >= 0 { byLayer[Int(full.layerOf[i])].append(i) }
            let order = byLayer.joined()
            inFold[root.index] = true
            var members: [Int] = []
            for i in order where drawn[i] == OperationID(i) && i != root.index {
                let alone = full.incoming[i].allSatisfy { inFold[full.edges[Int($0)].from.index] }
                if alone {
                    inFold[i] = true
                    members.append(i)
                }
            }
            for i in members { drawn[i] = root }
            inFold[root.index] = false
            for i in members { inFold[i] = false }
        }
        return drawn
    }

    /// Per operation, how many others its node gathers (0 for most).
    public static func gatheredCounts(_ drawnAs: [OperationID?]?, count n: Int) -> [Int] {
        var counts = [Int](repeating: 0, count: n)
        guard let drawnAs else { return counts }
        for (i, node) in drawnAs.enumerated() {
            if let node, node.index != i, counts.indices.contains(node.index) { counts[node.index] += 1 }
        }
        return counts
    }
}
