/// A cell position on a grid or screen: 0-based column (left to right) and
/// 0-based row (top to bottom), both in cells.
public struct Position: Hashable, Sendable, CustomStringConvertible {
    public var column: Int
    public var row: Int

    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }

    public static let zero = Position(column: 0, row: 0)

    public var description: String { "(\(column),\(row))" }
}

/// A size in cells. Never negative: negative inputs are clamped to zero so
/// that arithmetic on a too-small terminal degrades to empty areas, not traps.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    public static let zero = Size(columns: 0, rows: 0)

    public var description: String { "\(columns)x\(rows)" }
}

/// A rectangle of cells: origin at (`x`, `y`), 0-based, `width` columns by
/// `height` rows. Zero-size rectangles are valid everywhere; nothing drawn
/// into one appears. Width and height are clamped to be non-negative.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int { didSet { width = max(0, width) } }
    public var height: Int { didSet { height = max(0, height) } }

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public init(origin: Position = .zero, size: Size) {
        self.init(x: origin.column, y: origin.row, width: size.columns, height: size.rows)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    /// First column inside the rectangle.
    public var minX: Int { x }
    /// First row inside the rectangle.
    public var minY: Int { y }
    /// First column past the right edge (exclusive).
    public var maxX: Int { x + width }
    /// First row past the bottom edge (exclusive).
    public var maxY: Int { y + height }
    public var origin: Position { Position(column: x, row: y) }
    public var size: Size { Size(columns: width, rows: height) }
    public var isEmpty: Bool { width == 0 || height == 0 }

    public func contains(_ p: Position) -> Bool {
        p.column >= minX && p.column < maxX && p.row >= minY && p.row < maxY
    }

    /// The overlap of two rectangles; `.zero`-sized (at the clamped origin) when
    /// they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(minX, other.minX)
        let top = max(minY, other.minY)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle shrunk by the given number of cells on each side; never
    /// negative (an inset larger than the rectangle gives an empty one).
    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        let w = max(0, width - left - right)
        let h = max(0, height - top - bottom)
        return Rect(x: x + min(left, width), y: y + min(top, height), width: w, height: h)
    }

    /// The rectangle shrunk by `cells` on all four sides (1 = inside a frame).
    public func inset(by cells: Int) -> Rect {
        inset(top: cells, left: cells, bottom: cells, right: cells)
    }

    public var description: String { "Rect(x: \(x), y: \(y), w: \(width), h: \(height))" }
}
