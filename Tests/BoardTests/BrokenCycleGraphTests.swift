import Board
import Foundation
import ScenarioKit
import Testing

/// A cycle the language lets through (an `at … cancel` breaks it) still
/// lays out: every operation gets a node, every dependency an edge, and
/// folding any of them ends.
@Suite struct BrokenCycleGraphTests {
    static let cycle = GraphLayoutTests.scenario(
        """
        queue q
        op op1 on q work 10ms after op2
        op op2 on q work 10ms after op3
        op op3 on q work 10ms after op1
        op tail on q work 10ms after op1
        at 0ms cancel op3

        """)

    @Test func everyOperationAndDependencyIsDrawn() {
        let layout = GraphLayout(scenario: Self.cycle)
        let nodes = layout.layers.flatMap { $0 }.compactMap { slot -> String? in
            if case .operation(let op) = slot { return Self.cycle.opName(op) }
            return nil
        }
        #expect(Set(nodes) == ["op1", "op2", "op3", "tail"])
        let edges = Set(layout.edges.map { Self.cycle.opName($0.from) + "→" + Self.cycle.opName($0.to) })
        #expect(edges == ["op2→op1", "op3→op2", "op1→op3", "op1→tail"])
    }

    @Test(arguments: ["op1", "op2", "op3", "tail"]) func foldingAnyOperationEnds(_ name: String) throws {
        let full = GraphLayout(scenario: Self.cycle)
        let op = try #require(Self.cycle.operationID(named: name))
        let drawnAs = try #require(GraphFolds.drawnAs(full: full, folds: [op], isShown: nil))
        #expect(drawnAs.count == 4)
        #expect(drawnAs[op.index] == op)
    }
}
