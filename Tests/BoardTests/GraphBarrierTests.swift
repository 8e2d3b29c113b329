import Board
import EventFixtures
import Foundation
import ScenarioKit
import Testing

/// The barrier rule in the graph (`BarrierRule`, `GraphLayout`): what a
/// barrier waits for and what waits for it are edges, marked apart from
/// the `after` clauses; their closure is the whole rule; and the critical
/// path names only prerequisites the graph draws an edge from.
@Suite struct GraphBarrierTests {
    static let disk = GraphLayoutTests.scenario(
        """
        queue disk max 3
        queue net
        op write1 on disk work 300ms
        op write2 on disk work 500ms
        op fetch on net work 10ms
        barrier flush on disk work 100ms
        op read1 on disk work 200ms
        op read2 on disk work 200ms after fetch
        barrier seal on disk
        barrier close on disk
        op late on disk work 1ms
        op tail on disk work 1ms
        at 1s add tail

        """)

    static func names(_ edges: [(OperationID, OperationID)], _ s: Scenario) -> [String] {
        edges.map { s.opName($0.0) + "→" + s.opName($0.1) }
    }

    @Test func aBarrierWaitsForWhatItsQueueAddedBeforeItAndWhatComesAfterWaitsForIt() {
        let s = Self.disk
        let edges = s.barrierEdges
        #expect(
            Self.names(edges.map { ($0.from, $0.to) }, s) == [
                "write1→flush", "write2→flush", "flush→read1", "flush→read2", "read1→seal", "read2→seal",
                "seal→close", "close→late", "close→tail",
            ])
        #expect(
            edges.allSatisfy { s[operation: $0.barrier].isBarrier && ($0.barrier == $0.from || $0.barrier == $0.to) })
        // `tail` is added by its `add` action, after `late`.
        #expect(s.addOrder.last == s.operationID(named: "tail"))
        // fetch is on another queue: no barrier of disk orders it.
        #expect(!edges.contains { $0.from == s.operationID(named: "fetch") || $0.to == s.operationID(named: "fetch") })
    }

    /// The edges are the rule's transitive reduction along the add order:
    /// what they reach is exactly what `BarrierRule.orders` reaches, taken
    /// pair by pair over the add order, here and on every library file.
    @Test func theEdgesReachExactlyWhatTheRuleOrders() throws {
        var scenarios = [Self.disk]
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../scenarios")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".ops") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            if let s = ScenarioReader.read(text, path: name).scenario { scenarios.append(s) }
        }
        #expect(scenarios.count > 30)
        for s in scenarios {
            let order = s.addOrder
            let n = s.operations.count
            var drawn = [[Int]](repeating: [], count: n)
            for edge in s.barrierEdges { drawn[edge.from.index].append(edge.to.index) }
            var rule = [[Int]](repeating: [], count: n)
            for (i, a) in order.enumerated() {
                for b in order[(i + 1)...] where BarrierRule.orders(a, before: b, in: s) {
                    rule[a.index].append(b.index)
                }
            }
            func reach(_ next: [[Int]], from a: Int) -> Set<Int> {
                var seen = Set<Int>()
                var stack = [a]
                while let x = stack.popLast() {
                    for y in next[x] where seen.insert(y).inserted { stack.append(y) }
                }
                return seen
            }
            for a in order {
                #expect(reach(drawn, from: a.index) == reach(rule, from: a.index), "\(s.opName(a)) in \(s.title ?? "")")
            }
        }
    }

    @Test func theLayoutDrawsTheRulesEdgesMarkedAndAClauseOnlyOnce() {
        let s = GraphLayoutTests.scenario(
            """
            queue disk max 3
            op write1 work 300ms
            barrier flush on disk work 100ms
            op read1 work 200ms after flush
            op read2 work 200ms

            """)
        let layout = GraphLayout(scenario: s)
        #expect(
            layout.edges.map { s.opName($0.from) + "→" + s.opName($0.to) + ($0.isBarrier ? " (barrier)" : "") } == [
                "flush→read1", "write1→flush (barrier)", "flush→read2 (barrier)",
            ])
        #expect(layout.layerOf == [0, 1, 2, 2])
        let canvas = GraphCanvas(layout: layout, scenario: s, nameWidth: 8, gap: 5)
        #expect(
            canvas.lines(scenario: s) == [
                "write1╌╌╌╌╌╌▹flush────┬──▸read1",
                "                      └╌╌▹read2",
            ])
        #expect(canvas.lines(scenario: s, ascii: true)[0] == "write1......>flush----+-->read1")
    }

    /// H and G agree: on 07-barrier's run, each prerequisite the critical
    /// path names is an edge of the graph into the operation it released.
    @Test func theCriticalPathsPrerequisitesAreEdgesOfTheGraph() {
        let s = GraphLayoutTests.scenario(
            """
            queue disk max 3
            op write1 work 300ms
            op write2 work 500ms
            barrier flush on disk work 100ms
            op read1 work 200ms
            op read2 work 200ms

            """)
        var script = Script(s)
        for name in ["write1", "write2"] { script.add(name) }
        for name in ["flush", "read1", "read2"] { script.add(name, ready: false) }
        script.start("write1", thread: 1)
        script.start("write2", thread: 2)
        script.at(0.3)
        script.finish("write1")
        script.at(0.5)
        script.finish("write2")
        script.ready("flush")
        script.run("flush", from: 0.5, to: 0.6)
        script.ready("read1")
        script.ready("read2")
        script.start("read1", thread: 1)
        script.start("read2", thread: 2)
        let timeline = RunTimeline(scenario: s, events: script.events)
        let layout = GraphLayout(scenario: s)
        let edges = Set(layout.edges.map { [$0.from.index, $0.to.index] })
        var named: [String] = []
        for target in ["read1", "read2"] {
            let path = timeline.criticalPath(to: script.id(target))!
            for step in path.steps {
                if case .waited(let op, until: .prerequisite(let other)) = step.link {
                    named.append(s.opName(other) + "→" + s.opName(op))
                    #expect(edges.contains([other.index, op.index]), "\(s.opName(other)) → \(s.opName(op))")
                }
            }
        }
        #expect(named.contains("write2→flush") && named.contains("flush→read1") && named.contains("flush→read2"))
    }
}
