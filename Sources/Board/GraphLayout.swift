import ScenarioKit

/// The dependency graph laid out in layers, for a view that draws it in
/// text: a layer per dependency depth (an operation with no dependency is
/// in layer 0, any other one layer after its deepest dependency), every
/// edge from a dependency to what waits for it (the barrier rule's waits
/// included, marked), an edge that skips layers
/// carried through each one it crosses by a waypoint, and the order in
/// each layer chosen to keep crossings few (the barycentre heuristic,
/// swept down and up a few times).
///
/// Pure and deterministic: the same scenario gives the same layout. Linear
/// in nodes, edges and waypoints per sweep, plus a sort per layer.
public struct GraphLayout: Sendable {
    /// What holds a place in a layer.
    public enum Slot: Sendable, Hashable {
        case operation(OperationID)
        /// Edge `edge` passing through this layer.
        case waypoint(edge: Int)
    }

    public struct Edge: Sendable, Hashable {
        /// The dependency.
        public var from: OperationID
        /// The operation that waits for it.
        public var to: OperationID
        /// The barrier rule of their queue makes the wait, not an `after`
        /// clause (`BarrierRule`): drawn apart from dependencies.
        public var isBarrier: Bool = false

        public init(from: OperationID, to: OperationID, isBarrier: Bool = false) {
            self.from = from
            self.to = to
            self.isBarrier = isBarrier
        }
    }

    /// Per layer, its slots from first (top) to last.
    public private(set) var layers: [[Slot]]
    /// Every dependency edge, in scenario order (operation, then its
    /// `after` names in order), then the barrier rule's (`isBarrier`).
    public let edges: [Edge]
    /// Per operation, its layer; -1 for one that is not a node of its own
    /// (hidden, or gathered into another by a fold).
    public let layerOf: [Int32]
    /// Per operation, its place in its layer.
    public private(set) var placeOf: [Int32]
    /// Per edge, its place in each layer strictly between its ends, in
    /// layer order (made from `waypointSlots`, for a reader).
    public var waypointPlaces: [[Int32]] {
        edges.indices.map { Array(waypointSlots[Int(waypointStart[$0])..<Int(waypointStart[$0 + 1])]) }
    }
    /// Every edge's waypoint places, edge after edge, in one array (no array
    /// per edge: a large graph has hundreds of thousands of edges); edge
    /// `e`'s are from `waypointStart[e]` to `waypointStart[e + 1]`.
    private var waypointSlots: [Int32]
    private let waypointStart: [Int32]
    /// Per operation, the edges into it and out of it (indices into `edges`).
    public let incoming: [[Int32]]
    public let outgoing: [[Int32]]

    /// - Parameters:
    ///   - drawnAs: per operation, the operation whose node stands for it:
    ///     itself, another that a fold gathered it into, or nil when it is
    ///     not drawn (a filter hides it). An edge joins the nodes that stand
    ///     for its ends, once, and is dropped when either is not drawn or
    ///     both are one node. nil: every operation is its own node. Gathered
    ///     nodes must keep the graph acyclic (`GraphFolds` does).
    ///   - sweeps: rounds of reordering (each a sweep down, then up).
    ///   - hint: a layout of the same scenario to keep the order of (the
    ///     whole graph's, for a fold of it): each layer starts in the
    ///     order the hint gives its operations and the waypoints of its
    ///     edges (an edge the hint does not have goes beside its
    ///     dependency's row), so that folding moves nothing else; then
    ///     `sweeps` rounds as usual (none keeps the hint's order).
    public init(scenario: Scenario, drawnAs: [OperationID?]? = nil, sweeps: Int = 4, hint: GraphLayout? = nil) {
        let n = scenario.operations.count
        // Every `after` clause, in scenario order, then the barrier rule's
        // edges (`BarrierRule`) that no clause already draws.
        var waits: [Edge] = []
        for (i, spec) in scenario.operations.enumerated() {
            for dep in spec.dependencies where dep.index >= 0 && dep.index < n && dep.index != i {
                waits.append(Edge(from: dep, to: OperationID(i)))
            }
        }
        let barrierEdges = scenario.barrierEdges
        if !barrierEdges.isEmpty {
            let clauses = Set(waits.map { Self.key($0.from, $0.to) })
            for edge in barrierEdges where !clauses.contains(Self.key(edge.from, edge.to)) {
                waits.append(Edge(from: edge.from, to: edge.to, isBarrier: true))
            }
        }
        var edges: [Edge] = []
        if let drawnAs, drawnAs.count == n {
            // An edge between two nodes is drawn once; a dependency wins
            // over a barrier's order.
            // Two waits become one edge only at a node that stands for
            // others (a fold's): the rest are as the whole graph has them,
            // and go in without a look-up.
            var gathers = [Bool](repeating: false, count: n)
            for i in 0..<n { if let node = drawnAs[i], node.index != i { gathers[node.index] = true } }
            var seen: [Int: Int] = [:]
            edges.reserveCapacity(waits.count)
            for wait in waits {
                guard let from = drawnAs[wait.from.index], let to = drawnAs[wait.to.index], from != to else {
                    continue
                }
                let edge = Edge(from: from, to: to, isBarrier: wait.isBarrier)
                guard gathers[from.index] || gathers[to.index] else {
                    edges.append(edge)
                    continue
                }
                if let e = seen[Self.key(from, to)] {
                    if !wait.isBarrier { edges[e].isBarrier = false }
                } else {
                    seen[Self.key(from, to)] = edges.count
                    edges.append(edge)
                }
            }
        } else {
            edges = waits
        }
        self.edges = edges
        var incoming = [[Int32]](repeating: [], count: n)
        var outgoing = [[Int32]](repeating: [], count: n)
        for (e, edge) in edges.enumerated() {
            incoming[edge.to.index].append(Int32(e))
            outgoing[edge.from.index].append(Int32(e))
        }
        self.incoming = incoming
        self.outgoing = outgoing
        var layerOf = Self.depths(count: n, edges: edges, outgoing: outgoing)
        if let drawnAs, drawnAs.count == n {
            for i in 0..<n where drawnAs[i] != OperationID(i) { layerOf[i] = -1 }
        }
        self.layerOf = layerOf
        let depth = Int(layerOf.max() ?? -1) + 1
        // Initial order: by queue, then scenario order; waypoints after
        // the operations, in edge order.
        var layers = [[Slot]](repeating: [], count: depth)
        if let hint, hint.layerOf.count == n {
            layers = Self.layers(keeping: hint, edges: edges, layerOf: layerOf, depth: depth)
        } else {
            let byQueue = (0..<n).sorted {
                let (qa, qb) = (scenario.operations[$0].queue.index, scenario.operations[$1].queue.index)
                return qa != qb ? qa < qb : $0 < $1
            }
            for i in byQueue where layerOf[i] >= 0 { layers[Int(layerOf[i])].append(.operation(OperationID(i))) }
            for (e, edge) in edges.enumerated() {
                let (a, b) = (Int(layerOf[edge.from.index]), Int(layerOf[edge.to.index]))
                if b - a > 1 { for l in (a + 1)..<b { layers[l].append(.waypoint(edge: e)) } }
            }
        }
        self.layers = layers
        placeOf = [Int32](repeating: 0, count: n)
        var start = [Int32](repeating: 0, count: edges.count + 1)
        for (e, edge) in edges.enumerated() {
            let span = Int(layerOf[edge.to.index]) - Int(layerOf[edge.from.index]) - 1
            start[e + 1] = start[e] + Int32(max(0, span))
        }
        waypointStart = start
        waypointSlots = [Int32](repeating: 0, count: Int(start[edges.count]))
        recordPlaces()
        for _ in 0..<max(0, sweeps) {
            reorder(downward: true)
            reorder(downward: false)
        }
    }

    /// Each layer's slots in the order `hint` gives them: an operation at
    /// its place there, a waypoint of an edge the hint has (same ends,
    /// same layers) at the hint's waypoint, another beside its dependency's
    /// row; ties in operation, then edge, order.
    static func layers(keeping hint: GraphLayout, edges: [Edge], layerOf: [Int32], depth: Int) -> [[Slot]] {
        var keyed = [[(key: Int32, order: Int, slot: Slot)]](repeating: [], count: depth)
        for i in layerOf.indices where layerOf[i] >= 0 {
            let key = hint.layerOf[i] >= 0 ? hint.placeOf[i] : Int32.max
            keyed[Int(layerOf[i])].append((key, i, .operation(OperationID(i))))
        }
        for (e, edge) in edges.enumerated() {
            let (a, b) = (Int(layerOf[edge.from.index]), Int(layerOf[edge.to.index]))
            guard b - a > 1 else { continue }
            var same: Int?
            if Int(hint.layerOf[edge.from.index]) == a, Int(hint.layerOf[edge.to.index]) == b {
                same = hint.outgoing[edge.from.index].lazy.map(Int.init).first { hint.edges[$0].to == edge.to }
            }
            let beside = hint.layerOf[edge.from.index] >= 0 ? hint.placeOf[edge.from.index] : Int32.max
            for l in (a + 1)..<b {
                let key = same.map { hint.waypointSlots[Int(hint.waypointStart[$0]) + l - a - 1] } ?? beside
                keyed[l].append((key, layerOf.count + e, .waypoint(edge: e)))
            }
        }
        return keyed.map { layer in
            layer.sorted { $0.key != $1.key ? $0.key < $1.key : $0.order < $1.order }.map(\.slot)
        }
    }

    /// One number for an edge's two ends.
    static func key(_ from: OperationID, _ to: OperationID) -> Int { from.index << 32 | to.index }

    /// Longest-path depth; an operation on a cycle (the language allows
    /// only one an `at … cancel` breaks) stays in layer 0.
    /// `outgoing`: per operation, the edges out of it (indices into `edges`).
    static func depths(count n: Int, edges: [Edge], outgoing: [[Int32]]) -> [Int32] {
        var indegree = [Int32](repeating: 0, count: n)
        for edge in edges { indegree[edge.to.index] += 1 }
        var layer = [Int32](repeating: 0, count: n)
        var queue = (0..<n).filter { indegree[$0] == 0 }
        queue.reserveCapacity(n)
        var head = 0
        while head < queue.count {
            let i = queue[head]
            head += 1
            for e in outgoing[i] {
                let j = edges[Int(e)].to.index
                layer[j] = max(layer[j], layer[i] + 1)
                indegree[j] -= 1
                if indegree[j] == 0 { queue.append(j) }
            }
        }
        return layer
    }

    private mutating func recordPlaces() {
        for l in layers.indices {
            for (p, slot) in layers[l].enumerated() {
                switch slot {
                case .operation(let op): placeOf[op.index] = Int32(p)
                case .waypoint: break
                }
            }
        }
        for l in layers.indices {
            for (p, slot) in layers[l].enumerated() {
                if case .waypoint(let e) = slot {
                    waypointSlots[Int(waypointStart[e]) + l - Int(layerOf[edges[e].from.index]) - 1] = Int32(p)
                }
            }
        }
    }

    /// The place, in layer `layer`, of what edge `e` touches there: its
    /// ends in their layers, a waypoint in between.
    func place(ofEdge e: Int, inLayer layer: Int) -> Int {
        let edge = edges[e]
        let (a, b) = (Int(layerOf[edge.from.index]), Int(layerOf[edge.to.index]))
        if layer == a { return Int(placeOf[edge.from.index]) }
        if layer == b { return Int(placeOf[edge.to.index]) }
        return Int(waypointSlots[Int(waypointStart[e]) + layer - a - 1])
    }

    /// One sweep: each layer sorted by the mean place of its neighbours in
    /// the layer before (downward) or after (upward); a slot with none
    /// keeps its place. Ties keep the present order.
    private mutating func reorder(downward: Bool) {
        // Per layer, for each slot, the edges that touch it from the side the sweep comes from.
        let order = downward ? Array(layers.indices.dropFirst()) : Array(layers.indices.dropLast().reversed())
        for l in order {
            let neighbour = downward ? l - 1 : l + 1
            var keyed: [(key: Double, place: Int, slot: Slot)] = []
            keyed.reserveCapacity(layers[l].count)
            for (p, slot) in layers[l].enumerated() {
                var sum = 0
                var count = 0
                switch slot {
                case .operation(let op):
                    for e32 in downward ? incoming[op.index] : outgoing[op.index] {
                        let e = Int(e32)
                        let edge = edges[e]
                        let other = downward ? edge.from : edge.to
                        let otherLayer = Int(layerOf[other.index])
                        // The edge's slot in the neighbouring layer: its other end, or a waypoint.
                        guard downward ? otherLayer <= neighbour : otherLayer >= neighbour else { continue }
                        sum += place(ofEdge: e, inLayer: neighbour)
                        count += 1
                    }
                case .waypoint(let e):
                    sum += place(ofEdge: e, inLayer: neighbour)
                    count += 1
                }
                keyed.append((count == 0 ? Double(p) : Double(sum) / Double(count), p, slot))
            }
            keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.place < $1.place }
            layers[l] = keyed.map(\.slot)
            for (p, slot) in layers[l].enumerated() {
                switch slot {
                case .operation(let op): placeOf[op.index] = Int32(p)
                case .waypoint(let e):
                    waypointSlots[Int(waypointStart[e]) + l - Int(layerOf[edges[e].from.index]) - 1] = Int32(p)
                }
            }
        }
    }

    /// How many pairs of edge segments cross between neighbouring layers.
    public var crossings: Int {
        var total = 0
        for l in 0..<max(0, layers.count - 1) {
            var segments: [(Int, Int)] = []
            for e in edges.indices {
                let (a, b) = (Int(layerOf[edges[e].from.index]), Int(layerOf[edges[e].to.index]))
                guard a <= l, b >= l + 1 else { continue }
                segments.append((place(ofEdge: e, inLayer: l), place(ofEdge: e, inLayer: l + 1)))
            }
            segments.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            // Inversions of the second places, counted by merge sort.
            var seconds = segments.map(\.1)
            total += Self.inversions(&seconds)
        }
        return total
    }

    static func inversions(_ a: inout [Int]) -> Int {
        guard a.count > 1 else { return 0 }
        var left = Array(a[..<(a.count / 2)])
        var right = Array(a[(a.count / 2)...])
        var count = inversions(&left) + inversions(&right)
        var (i, j, k) = (0, 0, 0)
        while i < left.count && j < right.count {
            if left[i] <= right[j] {
                a[k] = left[i]
                i += 1
            } else {
                a[k] = right[j]
                count += left.count - i
                j += 1
            }
            k += 1
        }
        while i < left.count {
            a[k] = left[i]
            i += 1
            k += 1
        }
        while j < right.count {
            a[k] = right[j]
            j += 1
            k += 1
        }
        return count
    }
}

extension GraphLayout {
    /// Whether `op` is a node of its own in this layout.
    public func isNode(_ op: OperationID) -> Bool {
        layerOf.indices.contains(op.index) && layerOf[op.index] >= 0
    }

    /// What `op` waits for, directly or through others (`upstream`), or
    /// what waits for it (downstream), as a set of operation indices.
    public func reach(from op: OperationID, upstream: Bool) -> Set<Int> {
        let mask = reachMask(from: op, upstream: upstream)
        return Set(mask.indices.filter { mask[$0] })
    }

    /// `reach` as one flag per operation: what a frame asks, without hashing.
    public func reachMask(from op: OperationID, upstream: Bool) -> [Bool] {
        var seen = [Bool](repeating: false, count: layerOf.count)
        guard seen.indices.contains(op.index) else { return seen }
        var stack = [op.index]
        while let i = stack.popLast() {
            for e in upstream ? incoming[i] : outgoing[i] {
                let j = upstream ? edges[Int(e)].from.index : edges[Int(e)].to.index
                if !seen[j] {
                    seen[j] = true
                    stack.append(j)
                }
            }
        }
        return seen
    }
}
