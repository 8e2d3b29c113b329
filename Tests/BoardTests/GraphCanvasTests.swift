import Board
import ScenarioKit
import Testing

/// The layout on a grid of cells: names in their columns, each edge out of
/// its dependency's row and into its dependent's (`▸`), junctions where
/// edges meet, a straight line through a layer an edge skips.
@Suite struct GraphCanvasTests {
    static func canvas(_ text: String, nameWidth: Int = 8, ascii: Bool = false) -> [String] {
        let scenario = ScenarioReader.read(text, path: "g.ops").scenario!
        let layout = GraphLayout(scenario: scenario)
        return GraphCanvas(layout: layout, scenario: scenario, nameWidth: nameWidth, gap: 5)
            .lines(scenario: scenario, ascii: ascii)
    }

    @Test func aChainIsOneRow() {
        #expect(
            Self.canvas("queue q\nop fetch work 1ms\nop decode work 1ms after fetch\nop save work 1ms after decode\n")
                == ["fetch───────▸decode──────▸save"])
    }

    @Test func aFanOutBranchesAndAFanInMeets() {
        let lines = Self.canvas(
            """
            queue q
            op src work 1ms
            op a work 1ms after src
            op b work 1ms after src
            op sink work 1ms after a, b

            """)
        #expect(
            lines == [
                "src──────┬──▸a────────┬──▸sink",
                "         └──▸b────────┘",
            ], "\(lines.joined(separator: "\n"))")
    }

    @Test func anEdgeThatSkipsALayerRunsStraightThroughIt() {
        let lines = Self.canvas(
            """
            queue q
            op fetch work 1ms
            op decode work 1ms after fetch
            op thumb work 1ms after decode
            op log work 1ms after fetch, thumb

            """)
        #expect(lines.count == 2)
        // The skipping edge crosses decode's and thumb's layers on the
        // second row, and meets thumb's edge to log in the last gap: both
        // arrive at log through one arrow.
        #expect(
            lines == [
                "fetch────┬──▸decode──────▸thumb────┬──▸log",
                "         └─────────────────────────┘",
            ], "\(lines.joined(separator: "\n"))")
    }

    @Test func asciiHasNoBoxDrawing() {
        let lines = Self.canvas(
            "queue q\nop src work 1ms\nop a work 1ms after src\nop b work 1ms after src\n", ascii: true)
        #expect(lines == ["src------+-->a", "         +-->b"], "\(lines)")
    }
}
