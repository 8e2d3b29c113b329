import Board
import ScenarioKit
import Testing

/// The dependency graph in layers: depths, waypoints for edges that skip
/// layers, crossings kept few, reach up and down.
@Suite struct GraphLayoutTests {
    static func scenario(_ text: String) -> Scenario { ScenarioReader.read(text, path: "g.ops").scenario! }

    static func names(_ layout: GraphLayout, _ scenario: Scenario) -> [[String]] {
        layout.layers.map { layer in
            layer.map { slot in
                switch slot {
                case .operation(let op): scenario.opName(op)
                case .waypoint(let e):
                    "(" + scenario.opName(layout.edges[e].from) + "→" + scenario.opName(layout.edges[e].to) + ")"
                }
            }
        }
    }

    @Test func aLayerPerDependencyDepthAndAWaypointWhereAnEdgeSkipsALayer() {
        let s = Self.scenario(
            """
            queue q
            op fetch work 1ms
            op decode work 1ms after fetch
            op thumb work 1ms after decode
            op log work 1ms after fetch, thumb

            """)
        let layout = GraphLayout(scenario: s)
        #expect(Self.names(layout, s) == [["fetch"], ["decode", "(fetch→log)"], ["thumb", "(fetch→log)"], ["log"]])
        #expect(layout.layerOf == [0, 1, 2, 3])
        #expect(layout.crossings == 0)
    }

    @Test func theOrderInALayerFollowsWhatItWaitsForSoThatEdgesDoNotCross() {
        // Listed so that the file's order crosses every pair of edges.
        let s = Self.scenario(
            """
            queue q
            op a1 work 1ms
            op a2 work 1ms
            op a3 work 1ms
            op b3 work 1ms after a3
            op b2 work 1ms after a2
            op b1 work 1ms after a1

            """)
        let layout = GraphLayout(scenario: s, sweeps: 0)
        #expect(layout.crossings == 3)
        let swept = GraphLayout(scenario: s)
        #expect(swept.crossings == 0)
        #expect(Self.names(swept, s)[1] == ["b1", "b2", "b3"])
    }

    @Test func theMissingDependencyBugIsAnEdgeThatSkipsALayer() {
        let s = Self.scenario(
            """
            queue net
            queue cpu
            queue ui serial
            op fetch1 on net async 1ms
            op fetch3 on net async 1ms
            op decode1 on cpu work 1ms after fetch1
            op decode3 on cpu work 1ms after fetch3
            op thumb1 on ui work 1ms after decode1
            op thumb3 on ui work 1ms after fetch3

            """)
        let layout = GraphLayout(scenario: s)
        // thumb3 sits with the decodes, one layer early: nothing waits in between.
        #expect(layout.layerOf[s.operationID(named: "thumb3")!.index] == 1)
        #expect(layout.layerOf[s.operationID(named: "thumb1")!.index] == 2)
        #expect(layout.reach(from: s.operationID(named: "thumb3")!, upstream: true) == [1])
        #expect(layout.reach(from: s.operationID(named: "fetch1")!, upstream: false) == [2, 4])
    }

    @Test func aLargeRandomGraphKeepsEveryOperationOnceAndEveryEdgeThroughEachLayer() {
        var rng = SystemRandomNumberGenerator()
        var text = "queue q\n"
        for i in 0..<300 {
            let deps =
                i == 0 ? [] : (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 0..<i, using: &rng) }
            let after = Set(deps).isEmpty ? "" : " after " + Set(deps).sorted().map { "o\($0)" }.joined(separator: ", ")
            text += "op o\(i) work 1ms\(after)\n"
        }
        let s = Self.scenario(text)
        let layout = GraphLayout(scenario: s)
        var seen = Set<Int>()
        for (l, layer) in layout.layers.enumerated() {
            for (p, slot) in layer.enumerated() {
                guard case .operation(let op) = slot else { continue }
                #expect(seen.insert(op.index).inserted)
                #expect(layout.layerOf[op.index] == Int32(l) && layout.placeOf[op.index] == Int32(p))
            }
        }
        #expect(seen.count == 300)
        for (e, edge) in layout.edges.enumerated() {
            let (a, b) = (Int(layout.layerOf[edge.from.index]), Int(layout.layerOf[edge.to.index]))
            #expect(a < b)
            #expect(layout.waypointPlaces[e].count == b - a - 1)
        }
        #expect(layout.crossings <= GraphLayout(scenario: s, sweeps: 0).crossings)
    }
    /// A fold laid out keeping the whole graph's order (what a large
    /// graph's fold does): the operations left keep their order in each
    /// layer, and the waypoints of an edge the whole graph has keep theirs.
    @Test func aLayoutKeepingAnotherKeepsTheOrderOfWhatBothHave() throws {
        var text = "queue q\n"
        for i in 0..<40 {
            let deps = i < 4 ? "" : " after o\((i * 7) % i), o\((i * 3 + 1) % i)"
            text += "op o\(i) work 1ms\(deps)\n"
        }
        let s = Self.scenario(text)
        let whole = GraphLayout(scenario: s)
        let folded = try #require(GraphFolds.drawnAs(full: whole, folds: [OperationID(5)], isShown: nil))
        let kept = GraphLayout(scenario: s, drawnAs: folded, sweeps: 0, hint: whole)
        for layer in kept.layers {
            let ops = layer.compactMap { slot -> OperationID? in
                if case .operation(let op) = slot { op } else { nil }
            }
            // Of the operations that stayed in the layer the whole graph gave them, the order is the whole graph's.
            let stayed = ops.filter { kept.layerOf[$0.index] == whole.layerOf[$0.index] }
            #expect(stayed.map { whole.placeOf[$0.index] } == stayed.map { whole.placeOf[$0.index] }.sorted())
        }
        // Every edge still joins its ends through one waypoint per layer between.
        for (e, edge) in kept.edges.enumerated() {
            let (a, b) = (Int(kept.layerOf[edge.from.index]), Int(kept.layerOf[edge.to.index]))
            #expect(kept.waypointPlaces[e].count == b - a - 1)
        }
    }
}
