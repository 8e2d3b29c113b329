import Board
import ScenarioKit
import Testing

/// Folds and the filter on the dependency graph: what stands for what,
/// the edges that are left, and a layout that stays a layered DAG.
@Suite struct GraphFoldsTests {
    static let photos = GraphLayoutTests.scenario(
        """
        queue q
        op fetch work 1ms
        op decode work 1ms after fetch
        op thumb work 1ms after decode
        op log work 1ms after fetch
        op upload work 1ms after thumb, other
        op other work 1ms

        """)

    static func id(_ name: String) -> OperationID { photos.operationID(named: name)! }

    static func edges(_ layout: GraphLayout) -> Set<String> {
        Set(layout.edges.map { photos.opName($0.from) + "→" + photos.opName($0.to) })
    }

    @Test func aFoldGathersAllThatWaitsForItsRootAndTheEdgesIntoThemGoToTheRoot() {
        let full = GraphLayout(scenario: Self.photos)
        let drawnAs = GraphFolds.drawnAs(full: full, folds: [Self.id("decode")], isShown: nil)!
        #expect(drawnAs.map { $0.map(Self.photos.opName) } == ["fetch", "decode", "decode", "log", "decode", "other"])
        let folded = GraphLayout(scenario: Self.photos, drawnAs: drawnAs)
        // other → upload became other → decode; decode → thumb → upload are inside the fold.
        #expect(Self.edges(folded) == ["fetch→decode", "fetch→log", "other→decode"])
        #expect(GraphFolds.gatheredCounts(drawnAs, count: 6) == [0, 2, 0, 0, 0, 0])
        #expect(!folded.isNode(Self.id("thumb")) && folded.isNode(Self.id("decode")))
        #expect(folded.layers.flatMap { $0 }.count == 4)
    }

    @Test func aFoldInsideAnotherFoldsNothingOfItsOwn() {
        let full = GraphLayout(scenario: Self.photos)
        let drawnAs = GraphFolds.drawnAs(full: full, folds: [Self.id("thumb"), Self.id("fetch")], isShown: nil)!
        #expect(drawnAs.map { $0.map(Self.photos.opName) } == ["fetch", "fetch", "fetch", "fetch", "fetch", "other"])
        #expect(Self.edges(GraphLayout(scenario: Self.photos, drawnAs: drawnAs)) == ["other→fetch"])
    }

    @Test func theFilterHidesOperationsAndTheEdgesThroughThem() {
        let full = GraphLayout(scenario: Self.photos)
        let hidden: Set<OperationID> = [Self.id("decode")]
        let drawnAs = GraphFolds.drawnAs(full: full, folds: [], isShown: { !hidden.contains($0) })!
        #expect(drawnAs[Self.id("decode").index] == nil)
        let layout = GraphLayout(scenario: Self.photos, drawnAs: drawnAs)
        #expect(Self.edges(layout) == ["fetch→log", "thumb→upload", "other→upload"])
        #expect(layout.layerOf[Self.id("thumb").index] == 0)
        #expect(GraphFolds.drawnAs(full: full, folds: [], isShown: nil) == nil)
    }

    /// Random graphs, folds and filters: every edge runs from an earlier
    /// layer to a later one between two nodes, each node is placed once,
    /// and an operation is drawn by a node that is drawn.
    @Test func randomFoldsAndFiltersKeepALayeredGraph() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for round in 0..<60 {
            let count = 5 + next(40)
            var text = "queue q\n"
            for i in 0..<count {
                let deps = (0..<min(i, 3)).map { _ in "o\(next(i))" }
                text +=
                    "op o\(i) work 1ms" + (deps.isEmpty ? "" : " after " + Set(deps).sorted().joined(separator: ", "))
                    + "\n"
            }
            let scenario = ScenarioReader.read(text, path: "r.ops").scenario!
            let full = GraphLayout(scenario: scenario)
            let folds = Set((0..<next(4)).map { _ in OperationID(next(count)) })
            let hidden = Set((0..<(round % 2 == 0 ? 0 : next(count / 2 + 1))).map { _ in OperationID(next(count)) })
            let drawnAs = GraphFolds.drawnAs(full: full, folds: folds, isShown: { !hidden.contains($0) })!
            let layout = GraphLayout(scenario: scenario, drawnAs: drawnAs)
            for edge in layout.edges {
                #expect(layout.isNode(edge.from) && layout.isNode(edge.to))
                #expect(layout.layerOf[edge.from.index] < layout.layerOf[edge.to.index], "round \(round)")
            }
            var placed = [Int](repeating: 0, count: count)
            for layer in layout.layers {
                for case .operation(let op) in layer { placed[op.index] += 1 }
            }
            for i in 0..<count {
                let node = drawnAs[i]
                #expect(node == nil || layout.isNode(node!), "round \(round): o\(i)")
                #expect(placed[i] == (layout.isNode(OperationID(i)) ? 1 : 0))
                #expect(hidden.contains(OperationID(i)) == (node == nil))
            }
        }
    }
}
