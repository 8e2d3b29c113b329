import Board
import ScenarioKit
import Synchronization
import TextKit

/// `G`: the dependency graph in the board area (`GraphLayout` drawn by
/// `GraphCanvas`): a column per dependency depth, an edge from each
/// dependency to what waits for it, each name in its column's colour at
/// the history cursor (`·` before one not yet added). The selected
/// operation is reversed; what it waits for, directly or through others,
/// is bold and underlined, what waits for it bold, the rest dim. The view
/// scrolls to keep the selection in sight.
enum GraphView {
    /// Cells for a name.
    static let nameWidth = 14
    static let gap = 6

    static func draw(
        board: BoardState, state: InterfaceState, frame: FrameInput, theme: Theme, into grid: inout CellGrid, rect: Rect
    ) {
        guard rect.width > 4, rect.height > 2 else { return }
        grid.fill(rect, with: .blank)
        let scenario = board.scenario
        let drawn = frame.memo?.graph(of: scenario) ?? GraphDrawing(scenario)
        let selected = state.selectedOperation
        let none = [Bool](repeating: false, count: scenario.operations.count)
        let upstream = selected.map { drawn.layout.reachMask(from: $0, upstream: true) } ?? none
        let downstream = selected.map { drawn.layout.reachMask(from: $0, upstream: false) } ?? none
        let (waitsFor, waitedBy) = (upstream.count { $0 }, downstream.count { $0 })
        var title = "Graph · \(drawn.layout.layers.count) layers"
        if let op = selected {
            title += " · \(scenario.opName(op)): waits for \(waitsFor), \(waitedBy) wait for it"
        }
        grid.write(
            truncate(title, toWidth: rect.width), at: Position(column: rect.x, row: rect.y), style: theme.heading,
            clippedTo: rect)
        let body = rect.inset(top: 1)
        let canvas = drawn.canvas
        let origin = scroll(canvas: canvas, to: selected, body: body)
        let ascii = frame.glyphs.isASCII
        for row in 0..<body.height {
            let y = origin.y + row
            guard y < canvas.height else { break }
            for column in 0..<body.width {
                let x = origin.x + column
                guard x < canvas.width else { break }
                let ch = canvas.character(x: x, y: y, ascii: ascii)
                guard ch != " " else { continue }
                grid.put(Cell(String(ch), style: theme.rule), at: body.x + column, row: body.y + row)
            }
        }
        // Only the layers and rows in view.
        let column = nameWidth + gap
        let firstLayer = max(0, origin.x / column)
        let lastLayer = min(drawn.layout.layers.count - 1, (origin.x + body.width) / column)
        var shown: [GraphCanvas.Node] = []
        if firstLayer <= lastLayer {
            for l in firstLayer...lastLayer {
                let slots = drawn.layout.layers[l]
                // A short layer may end above the rows in view.
                let rows = max(0, origin.y)..<max(max(0, origin.y), min(slots.count, origin.y + body.height))
                for p in rows {
                    if case .operation(let op) = slots[p], let node = canvas.nodes[op.index] { shown.append(node) }
                }
            }
        }
        for node in shown {
            let (x, y) = (node.x - origin.x, node.y - origin.y)
            guard y >= 0, y < body.height, x + node.width > 0, x < body.width else { continue }
            let card = board[operation: node.op]
            var style = theme.column(card.phase == .notAdded ? .pending : card.phase)
            var name = scenario.opName(node.op)
            if card.phase == .notAdded { name = (ascii ? "." : "·") + name }
            if node.op == selected {
                style = style.reversed
            } else if upstream[node.op.index] {
                style = style.underlined.bolded
            } else if downstream[node.op.index] {
                style = style.bolded
            } else if selected != nil, waitsFor + waitedBy > 0 {
                style = style.dimmed
            }
            let text = truncate(name, toWidth: node.width - 1)
            // A name cut at the body's left edge shows its end.
            let visible = x < 0 ? String(text.dropFirst(-x)) : text
            grid.write(
                visible, at: Position(column: body.x + max(0, x), row: body.y + y), style: style, clippedTo: body)
        }
    }

    /// The canvas cell at the body's top left: the selection's column and
    /// row kept in sight, a third from the left and in the middle.
    static func scroll(canvas: GraphCanvas, to op: OperationID?, body: Rect) -> (x: Int, y: Int) {
        guard let op, canvas.nodes.indices.contains(op.index), let node = canvas.nodes[op.index] else { return (0, 0) }
        let x = max(0, min(node.x - body.width / 3, canvas.width - body.width))
        let y = max(0, min(node.y - body.height / 2, canvas.height - body.height))
        return (x, y)
    }

    /// The operation the arrows go to from `op`: up and down in its layer
    /// (`dx` 0), or left to what it waits for and right to what waits for
    /// it, the one nearest its row (`dy` 0); nil when there is none.
    static func neighbour(of op: OperationID, dx: Int, dy: Int, layout: GraphLayout) -> OperationID? {
        let layer = Int(layout.layerOf[op.index])
        let place = Int(layout.placeOf[op.index])
        if dx == 0 {
            var p = place + dy
            while layout.layers[layer].indices.contains(p) {
                if case .operation(let other) = layout.layers[layer][p] { return other }
                p += dy
            }
            return nil
        }
        let candidates =
            dx < 0
            ? layout.edges.filter { $0.to == op }.map(\.from) : layout.edges.filter { $0.from == op }.map(\.to)
        return candidates.min { a, b in
            let (da, db) = (abs(Int(layout.placeOf[a.index]) - place), abs(Int(layout.placeOf[b.index]) - place))
            return da != db ? da < db : a < b
        }
    }
}

/// A scenario's graph, laid out and drawn once (`ScreenMemo.graph`).
struct GraphDrawing: Sendable {
    let layout: GraphLayout
    let canvas: GraphCanvas
    let operationCount: Int

    init(_ scenario: Scenario) {
        layout = GraphLayout(scenario: scenario)
        canvas = GraphCanvas(layout: layout, scenario: scenario, nameWidth: GraphView.nameWidth, gap: GraphView.gap)
        operationCount = scenario.operations.count
    }
}

extension ScreenMemo {
    /// The scenario's graph, made once (the memo serves one scenario).
    func graph(of scenario: Scenario) -> GraphDrawing {
        if let kept = graphKept.withLock({ $0 }), kept.operationCount == scenario.operations.count { return kept }
        let drawing = GraphDrawing(scenario)
        graphKept.withLock { $0 = drawing }
        return drawing
    }
}
