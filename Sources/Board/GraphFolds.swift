import ScenarioKit

/// Which node of a folded or filtered graph stands for each operation
/// (`GraphLayout(scenario:drawnAs:)`). A fold gathers what waits for its
/// root, directly or through others, into the root's node; a filter hides
/// operations, and the edges through them with them.
///
/// Folds are taken in dependency order (by layer, then scenario order), so
/// a root that an earlier fold gathered folds nothing of its own: all it
/// reaches, the earlier root reaches too. An operation two folds reach goes
/// to the first. The folded graph stays acyclic: an edge between two folds
/// can only run from a later fold into an earlier one (what a fold's
/// member waits for is reached by that fold, or comes from outside it), and
/// nothing outside a fold waits for one of its members without being one.
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
        for root in roots where drawn[root.index] == root {
            let reached = full.reachMask(from: root, upstream: false)
            for i in 0..<n where reached[i] && drawn[i] == OperationID(i) {
                drawn[i] = root
            }
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
