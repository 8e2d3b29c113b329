import Board
import ScenarioKit
import Synchronization
import TextKit

/// `G`: the dependency graph in the board area (`GraphLayout` drawn by
/// `GraphCanvas`): a column per dependency depth, an edge from each
/// dependency to what waits for it (the barrier rule's waits dashed,
/// `╌▹`, the title naming their queues), each name in its column's colour at
/// the history cursor (`·` before one not yet added). The selected
/// operation is reversed; what it waits for, directly or through others,
/// is bold and underlined, what waits for it bold, the rest dim. The view
/// scrolls to keep the selection in sight.
///
/// The filter (`F`) hides operations and the edges through them; a fold
/// (`e`) draws what waits for an operation as that operation's node,
/// `name +N`. `H` marks the selected operation's critical path (`▶`
/// before each name on it) and lists its links, with what each cost, in a
/// band at the bottom (`GraphView+Path.swift`).
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
        let drawn = drawing(board: board, state: state, frame: frame)
        let selected = state.selectedOperation.flatMap(drawn.node)
        let none = [Bool](repeating: false, count: scenario.operations.count)
        let (upstream, downstream) =
            selected.map { op in
                frame.memo?.reach(of: op, in: drawn)
                    ?? (
                        drawn.layout.reachMask(from: op, upstream: true),
                        drawn.layout.reachMask(from: op, upstream: false)
                    )
            } ?? (none, none)
        let (waitsFor, waitedBy) = (upstream.count { $0 }, downstream.count { $0 })
        let layers = drawn.layout.layers.count
        let ascii = frame.glyphs.isASCII
        var title = "Graph · \(layers) layer\(layers == 1 ? "" : "s")"
        if !drawn.barrierQueues.isEmpty {
            title += " · \(ascii ? ".>" : "╌▹") barrier rule of \(drawn.barrierQueues.joined(separator: ", "))"
        }
        if let op = selected {
            title += " · \(scenario.opName(op)): waits for \(waitsFor), \(waitedBy) wait for it"
        }
        if !state.graphFolds.isEmpty { title += " · \(state.graphFolds.count) folded" }
        grid.write(
            truncate(title, toWidth: rect.width), at: Position(column: rect.x, row: rect.y), style: theme.heading,
            clippedTo: rect)
        var body = rect.inset(top: 1)
        var path: HeldBack?
        if state.criticalPathShown, let op = state.selectedOperation {
            let held = heldBack(op, board: board, frame: frame)
            let scroll = state.criticalPathScroll.op == op ? state.criticalPathScroll.line : 0
            let band = drawBand(held, scroll: scroll, theme: theme, into: &grid, rect: body)
            body = body.inset(bottom: band)
            path = held
        }
        guard body.height > 0 else { return }
        let canvas = drawn.canvas
        let origin = scroll(canvas: canvas, to: selected, body: body)
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
        let onPath = path.map { Set($0.onPath.compactMap(drawn.node)) } ?? []
        for node in shown {
            let (x, y) = (node.x - origin.x, node.y - origin.y)
            guard y >= 0, y < body.height, x + node.width > 0, x < body.width else { continue }
            let card = board[operation: node.op]
            var style = theme.column(card.phase == .notAdded ? .pending : card.phase)
            var name = scenario.opName(node.op)
            if card.phase == .notAdded { name = (ascii ? "." : "·") + name }
            let marked = onPath.contains(node.op)
            if marked { name = (ascii ? ">" : "▶") + name }
            if node.op == selected {
                style = style.reversed
            } else if marked {
                style = style.reversed.bolded
            } else if upstream[node.op.index] {
                style = style.underlined.bolded
            } else if downstream[node.op.index] {
                style = style.bolded
            } else if selected != nil, waitsFor + waitedBy > 0 {
                style = style.dimmed
            }
            let gathered = drawn.gathered[node.op.index]
            let suffix = gathered > 0 ? " +\(gathered)" : ""
            let text = truncate(name, toWidth: max(1, node.width - 1 - suffix.count)) + suffix
            // A name cut at the body's left edge shows its end.
            let visible = x < 0 ? String(text.dropFirst(-x)) : text
            grid.write(
                visible, at: Position(column: body.x + max(0, x), row: body.y + y), style: style, clippedTo: body)
        }
    }

    /// The graph as `state` shows it: the whole one, or the one the filter
    /// and the folds leave.
    static func drawing(board: BoardState, state: InterfaceState, frame: FrameInput) -> GraphDrawing {
        let scenario = board.scenario
        let full = frame.memo?.graph(of: scenario) ?? GraphDrawing(scenario)
        let mask = state.filter.shown(on: board)
        let drawnAs: [OperationID?]?
        if mask == nil, let memo = frame.memo {
            // Folds alone: what stands for what is kept while they stay.
            drawnAs = memo.foldedAs(state.graphFolds, full: full)
        } else {
            drawnAs = GraphFolds.drawnAs(
                full: full.layout, folds: state.graphFolds, isShown: mask.map { mask in { mask.contains($0) } })
        }
        guard let drawnAs else { return full }
        return frame.memo?.graph(of: scenario, drawnAs: drawnAs) ?? GraphDrawing(scenario, drawnAs: drawnAs)
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

/// A scenario's graph, laid out and drawn once (`ScreenMemo.graph`): the
/// whole graph, or the one a filter and folds leave (`drawnAs`).
struct GraphDrawing: Sendable {
    let layout: GraphLayout
    let canvas: GraphCanvas
    let operationCount: Int
    /// Per operation, the node that stands for it (nil: hidden); nil for
    /// the whole graph, where each is its own.
    let drawnAs: [OperationID?]?
    /// Per operation, how many others a fold gathered into its node.
    let gathered: [Int]
    /// The queues whose barrier rule draws an edge here (dashed), in
    /// queue order: the title names them.
    let barrierQueues: [String]

    /// From this many operations on, the layout reorders its layers once
    /// (one sweep down and up) instead of four times: at 100,000 the four
    /// cost half a second, for a view that shows some forty names at once.
    static let fewerSweepsFrom = 20_000

    /// `whole`: the whole graph's layout, for a fold or a filter of a large
    /// one (`fewerSweepsFrom`): its order is kept, without sweeps, so that
    /// the rest stays in place and a fold is quick.
    init(_ scenario: Scenario, drawnAs: [OperationID?]? = nil, whole: GraphLayout? = nil) {
        let large = scenario.operations.count >= Self.fewerSweepsFrom
        let hint = large ? whole : nil
        layout = GraphLayout(
            scenario: scenario, drawnAs: drawnAs, sweeps: hint != nil ? 0 : large ? 1 : 4, hint: hint)
        canvas = GraphCanvas(layout: layout, scenario: scenario, nameWidth: GraphView.nameWidth, gap: GraphView.gap)
        operationCount = scenario.operations.count
        self.drawnAs = drawnAs
        gathered = GraphFolds.gatheredCounts(drawnAs, count: operationCount)
        var queues = Set<Int>()
        for edge in layout.edges where edge.isBarrier { queues.insert(scenario[operation: edge.to].queue.index) }
        barrierQueues = queues.sorted().map { scenario.queues[$0].name }
    }

    /// The node that stands for `op`, nil when it is hidden.
    func node(for op: OperationID) -> OperationID? {
        guard let drawnAs else { return op }
        return drawnAs.indices.contains(op.index) ? drawnAs[op.index] : nil
    }
}

extension ScreenMemo {
    /// From this many operations on, the interactive shell lays the graph
    /// out ahead, on a thread of its own, as the run starts
    /// (`layOutGraph`): at 100,000 operations it takes longer than a key
    /// may (100 ms), and the run, seconds long, leaves time for it.
    public static let graphLaidOutAhead = 2_000

    /// Lays the scenario's graph out and keeps it (nothing when it is
    /// kept): called ahead of `G`, off the main thread. A frame that asks
    /// for the graph meanwhile waits for this layout rather than making
    /// another.
    public func layOutGraph(of scenario: Scenario) { _ = graph(of: scenario) }

    /// The scenario's graph, made once (the memo serves one scenario).
    func graph(of scenario: Scenario) -> GraphDrawing {
        graphLayoutLock.withLock { _ in
            if let kept = graphKept.withLock({ $0 }), kept.operationCount == scenario.operations.count {
                return kept
            }
            let drawing = GraphDrawing(scenario)
            graphKept.withLock { $0 = drawing }
            return drawing
        }
    }

    /// What stands for what with `folds` and no filter
    /// (`GraphFolds.drawnAs`), kept while the folds stay: at 100,000
    /// operations a fold near the graph's start gathers from tens of
    /// thousands, each frame would find them again.
    func foldedAs(_ folds: Set<OperationID>, full: GraphDrawing) -> [OperationID?]? {
        guard !folds.isEmpty else { return nil }
        if let kept = foldsKept.withLock({ $0 }), kept.folds == folds, kept.count == full.operationCount {
            return kept.drawnAs
        }
        let drawnAs = GraphFolds.drawnAs(full: full.layout, folds: folds, isShown: nil)
        foldsKept.withLock { $0 = (folds, full.operationCount, drawnAs) }
        return drawnAs
    }

    /// What `op` waits for and what waits for it in `drawing`
    /// (`GraphLayout.reachMask`), kept while the selection and the drawing
    /// stay: a frame that only scrolls or marks does not walk the graph again.
    func reach(of op: OperationID, in drawing: GraphDrawing) -> (up: [Bool], down: [Bool]) {
        if let kept = reachKept.withLock({ $0 }), kept.op == op,
            kept.count == drawing.operationCount, kept.drawnAs == drawing.drawnAs
        {
            return (kept.up, kept.down)
        }
        let up = drawing.layout.reachMask(from: op, upstream: true)
        let down = drawing.layout.reachMask(from: op, upstream: false)
        reachKept.withLock { $0 = (op, drawing.operationCount, drawing.drawnAs, up, down) }
        return (up, down)
    }

    /// The graph a filter and folds leave, made again only when they
    /// change what stands for what.
    func graph(of scenario: Scenario, drawnAs: [OperationID?]) -> GraphDrawing {
        if let kept = shapedGraphKept.withLock({ $0 }), kept.operationCount == scenario.operations.count,
            kept.drawnAs == drawnAs
        {
            return kept
        }
        let whole = scenario.operations.count >= GraphDrawing.fewerSweepsFrom ? graph(of: scenario).layout : nil
        let drawing = GraphDrawing(scenario, drawnAs: drawnAs, whole: whole)
        shapedGraphKept.withLock { $0 = drawing }
        return drawing
    }
}
