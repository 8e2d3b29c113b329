import ScenarioKit
import Synchronization
import TextKit

/// A `GraphLayout` drawn on a grid of character cells, left to right: a
/// column of names per layer, and between two layers a gap where each edge
/// runs out of its dependency's row, along a channel of its own, and into
/// the row of what waits for it (`▸` before the name). An edge that skips
/// layers runs straight through each one it crosses, on its waypoint's row.
///
/// Lines are kept as connection masks (up, down, left, right) and turned
/// into box-drawing characters when a cell is asked for, so that where edges meet or
/// cross the cell shows both (`┼`, `├`, `┬`…). A line only the barrier
/// rule draws (`GraphLayout.Edge.isBarrier`) is dashed, `╌` `╎` into `▹`.
/// The views draw the names
/// over it in their state's colour (`nodes` says where each name goes).
///
/// Each layer's strip (its names' cells and the gap after it, where all
/// the lines a strip holds are drawn) is drawn the first time one of its
/// cells is asked and kept: a view of a graph of thousands of layers
/// draws the few it shows.
public struct GraphCanvas: Sendable {
    public struct Node: Sendable, Hashable {
        public var op: OperationID
        public var x: Int
        public var y: Int
        /// Cells the name may take.
        public var width: Int
    }

    public let width: Int
    public let height: Int
    /// Per operation, where its name goes.
    public private(set) var nodes: [Node?]
    private let layout: GraphLayout
    private let nameWidth: Int
    private let gap: Int
    /// Cells from one layer's names to the next's.
    private let column: Int
    /// Per gap after a layer, the edges that cross it, in edge order:
    /// found once for all gaps (as many entries as edge segments).
    private let crossing: [[Int32]]
    /// The strips drawn so far (`Strip`), made when a cell of one is first
    /// asked: a view shows a few of a large graph's thousands of layers.
    private let strips: StripCache

    /// The cells of one layer's column: its names' cells (where waypoints
    /// run through) and the gap after it (where the edges leaving it run),
    /// `column` cells wide, in local columns.
    struct Strip: Sendable {
        /// Per cell, row after row: bits of `Mask`.
        var masks: [UInt8]
        /// Cells where an edge arrives (`▸`).
        var arrows: Set<Int> = []
        /// Cells where only barrier edges arrive (`▹`).
        var barrierArrows: Set<Int> = []
    }

    final class StripCache: Sendable {
        let strips = Mutex<[Int: Strip]>([:])
    }

    struct Mask {
        static let up: UInt8 = 1
        static let down: UInt8 = 2
        static let left: UInt8 = 4
        static let right: UInt8 = 8
        /// A dependency's line runs through the cell.
        static let dependency: UInt8 = 16
        /// A line of the barrier rule runs through the cell: dashed when
        /// no dependency's does.
        static let barrier: UInt8 = 32
    }

    /// - Parameters:
    ///   - nameWidth: cells for each name (longer names are cut by the view).
    ///   - gap: cells between two layers' names, for the edges (at least 3).
    public init(layout: GraphLayout, scenario: Scenario, nameWidth: Int = 14, gap: Int = 6) {
        let gap = max(3, gap)
        let column = nameWidth + gap
        let rows = layout.layers.map(\.count).max() ?? 0
        self.layout = layout
        self.nameWidth = nameWidth
        self.gap = gap
        self.column = column
        width = max(0, layout.layers.count * column - gap)
        height = rows
        strips = StripCache()
        nodes = [Node?](repeating: nil, count: scenario.operations.count)
        for (l, layer) in layout.layers.enumerated() {
            for (p, slot) in layer.enumerated() {
                if case .operation(let op) = slot {
                    nodes[op.index] = Node(op: op, x: l * column, y: p, width: nameWidth)
                }
            }
        }
        var crossing = [[Int32]](repeating: [], count: max(0, layout.layers.count - 1))
        for e in layout.edges.indices {
            let a = Int(layout.layerOf[layout.edges[e].from.index])
            let b = Int(layout.layerOf[layout.edges[e].to.index])
            guard a >= 0, b > a else { continue }
            for l in a..<b { crossing[l].append(Int32(e)) }
        }
        self.crossing = crossing
    }

    /// The strip of layer `l`, drawn once.
    private func strip(_ l: Int) -> Strip {
        if let kept = strips.strips.withLock({ $0[l] }) { return kept }
        let strip = draw(l)
        strips.strips.withLock { $0[l] = strip }
        return strip
    }

    /// Draws layer `l`'s strip: the waypoints through its names' cells,
    /// then the edges across the gap after it.
    private func draw(_ l: Int) -> Strip {
        var strip = Strip(masks: [UInt8](repeating: 0, count: column * height))
        let left = l * column
        func connect(_ x: Int, _ y: Int, _ bits: UInt8) {
            guard x >= left, x < left + column, x < width, y >= 0, y < height else { return }
            strip.masks[y * column + x - left] |= bits
        }
        for (p, slot) in layout.layers[l].enumerated() {
            guard case .waypoint(let e) = slot else { continue }
            // The edge runs straight through the name column.
            let kind = layout.edges[e].isBarrier ? Mask.barrier : Mask.dependency
            for x in left..<(left + nameWidth) { connect(x, p, Mask.left | Mask.right | kind) }
        }
        guard crossing.indices.contains(l) else { return strip }
        // Channels in the gap: one column per edge leaving that layer, in
        // the order of their rows, so that verticals share a column rarely.
        let channels = max(1, gap - 2)
        let start = left + nameWidth
        var leaving: [(from: Int, to: Int, arrives: Bool, isBarrier: Bool)] = []
        for e32 in crossing[l] {
            let e = Int(e32)
            let b = Int(layout.layerOf[layout.edges[e].to.index])
            leaving.append(
                (
                    layout.place(ofEdge: e, inLayer: l), layout.place(ofEdge: e, inLayer: l + 1), b == l + 1,
                    layout.edges[e].isBarrier
                ))
        }
        leaving.sort { $0.from != $1.from ? $0.from < $1.from : $0.to < $1.to }
        // Edges out of one row, or into one row, share a channel: a fan-out
        // is one line down its channel with a branch to each target, a
        // fan-in one line into its target. An edge goes with the side it
        // shares more of in this gap.
        var out: [Int: Int] = [:]
        var into: [Int: Int] = [:]
        for edge in leaving {
            out[edge.from, default: 0] += 1
            into[edge.to, default: 0] += 1
        }
        var channelOf: [Int: Int] = [:]  // key (+row for a source, -row-1 for a target) to channel
        for edge in leaving {
            let key = out[edge.from]! >= into[edge.to]! ? edge.from : -edge.to - 1
            let channel = channelOf[key] ?? (start + 1 + channelOf.count % channels)
            channelOf[key] = channel
            // From the start of the name column: the name is written over
            // the line, which then runs on from where the name ends.
            let from = (x: left, y: edge.from)
            let to = (x: start + gap - 1, y: edge.to)
            let kind = edge.isBarrier ? Mask.barrier : Mask.dependency
            for x in from.x..<channel { connect(x, from.y, Mask.left | Mask.right | kind) }
            if from.y == to.y {
                connect(channel, from.y, Mask.left | Mask.right | kind)
            } else {
                let down = to.y > from.y
                connect(channel, from.y, Mask.left | (down ? Mask.down : Mask.up) | kind)
                var y = from.y + (down ? 1 : -1)
                while y != to.y {
                    connect(channel, y, Mask.up | Mask.down | kind)
                    y += down ? 1 : -1
                }
                connect(channel, to.y, Mask.right | (down ? Mask.up : Mask.down) | kind)
            }
            for x in (channel + 1)..<to.x { connect(x, to.y, Mask.left | Mask.right | kind) }
            if edge.arrives, to.x >= 0, to.x < width, to.y >= 0, to.y < height {
                let cell = to.y * column + to.x - left
                if kind == Mask.barrier {
                    if !strip.arrows.contains(cell) { strip.barrierArrows.insert(cell) }
                } else {
                    strip.arrows.insert(cell)
                    strip.barrierArrows.remove(cell)
                }
            } else {
                connect(to.x, to.y, Mask.left | Mask.right | kind)
            }
        }
        return strip
    }

    /// The character of a cell without the names: a line, a junction, an
    /// arrow, or a space.
    public func character(x: Int, y: Int, ascii: Bool = false) -> Character {
        guard x >= 0, x < width, y >= 0, y < height, column > 0 else { return " " }
        let l = x / column
        let strip = strip(l)
        let cell = y * column + x - l * column
        if strip.arrows.contains(cell) { return ascii ? ">" : "▸" }
        if strip.barrierArrows.contains(cell) { return ascii ? ">" : "▹" }
        return Self.glyph(strip.masks[cell], ascii: ascii)
    }

    /// A line the barrier rule alone draws is dashed (`╌`, `╎`; `.`
    /// and `:` in ASCII); where it meets another line the junction shows.
    static func glyph(_ mask: UInt8, ascii: Bool) -> Character {
        if mask & (Mask.barrier | Mask.dependency) == Mask.barrier {
            switch mask & 15 {
            case Mask.left | Mask.right, Mask.left, Mask.right: return ascii ? "." : "╌"
            case Mask.up | Mask.down, Mask.up, Mask.down: return ascii ? ":" : "╎"
            default: break
            }
        }
        if ascii {
            switch mask & 15 {
            case 0: return " "
            case Mask.left | Mask.right, Mask.left, Mask.right: return "-"
            case Mask.up | Mask.down, Mask.up, Mask.down: return "|"
            default: return "+"
            }
        }
        let table: [Character] = [
            " ", "│", "│", "│", "─", "┘", "┐", "┤", "─", "└", "┌", "├", "─", "┴", "┬", "┼",
        ]
        return table[Int(mask & 15)]
    }

    /// The whole canvas as text, each name written in its place (cut to
    /// its width): what a test or a screen excerpt shows.
    public func lines(scenario: Scenario, ascii: Bool = false) -> [String] {
        var rows = (0..<height).map { y in (0..<width).map { character(x: $0, y: y, ascii: ascii) } }
        for node in nodes.compactMap({ $0 }) {
            let name = Array(truncate(scenario.opName(node.op), toWidth: node.width))
            for (k, ch) in name.enumerated() where node.x + k < width { rows[node.y][node.x + k] = ch }
        }
        return rows.map { row in
            var row = row
            while row.last == " " { row.removeLast() }
            return String(row)
        }
    }
}
