import Board
import Foundation
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

    /// upload waits for thumb and for other: it is not decode's alone, so
    /// it stays outside the fold with both its edges.
    @Test func aFoldGathersWhatWaitsForItsRootAloneAndTheRestKeepsItsEdges() {
        let full = GraphLayout(scenario: Self.photos)
        let drawnAs = GraphFolds.drawnAs(full: full, folds: [Self.id("decode")], isShown: nil)!
        #expect(drawnAs.map { $0.map(Self.photos.opName) } == ["fetch", "decode", "decode", "log", "upload", "other"])
        let folded = GraphLayout(scenario: Self.photos, drawnAs: drawnAs)
        // thumb → upload became decode → upload; decode → thumb is inside the fold.
        #expect(Self.edges(folded) == ["fetch→decode", "fetch→log", "decode→upload", "other→upload"])
        #expect(GraphFolds.gatheredCounts(drawnAs, count: 6) == [0, 1, 0, 0, 0, 0])
        #expect(
            !folded.isNode(Self.id("thumb")) && folded.isNode(Self.id("decode")) && folded.isNode(Self.id("upload")))
        #expect(folded.layers.flatMap { $0 }.count { if case .operation = $0 { true } else { false } } == 5)
    }

    @Test func aFoldInsideAnotherFoldsNothingOfItsOwn() {
        let full = GraphLayout(scenario: Self.photos)
        let drawnAs = GraphFolds.drawnAs(full: full, folds: [Self.id("thumb"), Self.id("fetch")], isShown: nil)!
        #expect(drawnAs.map { $0.map(Self.photos.opName) } == ["fetch", "fetch", "fetch", "fetch", "upload", "other"])
        #expect(Self.edges(GraphLayout(scenario: Self.photos, drawnAs: drawnAs)) == ["fetch→upload", "other→upload"])
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

/// Every fold of every library file (and of the feed fixture, where
/// publish waits for 50 thumbnails) held to the dependency graph: what a
/// fold gathers waits only for the root or for others it gathered, and the
/// counts the title shows (waits for, wait for it, `+N`) are the graph's.
@Suite struct GraphFoldsTruthTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")

    static func scenarios() throws -> [(String, Scenario)] {
        let folder = root.appendingPathComponent("scenarios")
        var files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ops") }
            .sorted().map { "scenarios/" + $0 }
        files.append("Tests/opscopeTests/Fixtures/feed-fold.ops")
        return try files.map { path in
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            return (path, ScenarioReader.read(text, path: path).scenario!)
        }
    }

    @Test func everyFoldOfEveryLibraryFileGathersOnlyWhatWaitsForItsRootAlone() throws {
        let all = try Self.scenarios()
        #expect(all.count > 30)
        for (path, s) in all {
            let full = GraphLayout(scenario: s)
            let n = s.operations.count
            for r in 0..<n {
                let root = OperationID(r)
                let drawnAs = GraphFolds.drawnAs(full: full, folds: [root], isShown: nil)!
                let members = (0..<n).filter { $0 != r && drawnAs[$0] == root }
                let inFold = Set(members + [r])
                // Each gathered operation waits (by a clause or the barrier
                // rule) only for the root or for gathered ones.
                for m in members {
                    for e in full.incoming[m] {
                        let from = full.edges[Int(e)].from.index
                        #expect(inFold.contains(from), "\(path): \(s.opName(root)) gathers \(s.opName(OperationID(m)))")
                    }
                    for dep in s.operations[m].dependencies { #expect(inFold.contains(dep.index)) }
                }
                // And all it may gather, it does: an operation outside that
                // waits for the fold alone would be lost from view as well.
                let downstream = full.reachMask(from: root, upstream: false)
                for i in 0..<n where downstream[i] && !inFold.contains(i) {
                    let waits = full.incoming[i].map { full.edges[Int($0)].from.index }
                    #expect(!waits.allSatisfy(inFold.contains), "\(path): \(s.opName(OperationID(i))) left out")
                }
                // The counts the title shows.
                let folded = GraphLayout(scenario: s, drawnAs: drawnAs)
                let upFull = full.reachMask(from: root, upstream: true).count { $0 }
                let upFolded = folded.reachMask(from: root, upstream: true).count { $0 }
                #expect(upFolded == upFull, "\(path): \(s.opName(root)) waits for \(upFolded), not \(upFull)")
                let downFull = downstream.count { $0 }
                let downFolded = folded.reachMask(from: root, upstream: false).count { $0 }
                #expect(downFolded == downFull - members.count, "\(path): \(s.opName(root))")
                #expect(GraphFolds.gatheredCounts(drawnAs, count: n)[r] == members.count)
            }
        }
    }

    /// The case of issue 29: `e` on fetch7 gathers thumb7 and not publish,
    /// and fetch7 still waits for session alone.
    @Test func foldingOneFetchLeavesTheSharedPublishOutside() throws {
        let (_, s) = try #require(try Self.scenarios().last)
        let id = { (name: String) in s.operationID(named: name)! }
        let full = GraphLayout(scenario: s)
        let drawnAs = GraphFolds.drawnAs(full: full, folds: [id("fetch7")], isShown: nil)!
        #expect(
            (0..<s.operations.count).filter { drawnAs[$0] == id("fetch7") }.map { s.opName(OperationID($0)) } == [
                "fetch7", "thumb7",
            ])
        let folded = GraphLayout(scenario: s, drawnAs: drawnAs)
        #expect(folded.reach(from: id("fetch7"), upstream: true) == [id("session").index])
        #expect(folded.reach(from: id("fetch7"), upstream: false) == [id("publish").index])
        #expect(folded.reach(from: id("publish"), upstream: true).count == 1 + 50 + 49)
    }
}
