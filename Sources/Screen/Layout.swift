/// The direction along which a rectangle is split.
public enum Axis: Sendable, Hashable {
    /// Side by side, left to right: the parts share the width.
    case horizontal
    /// Stacked, top to bottom: the parts share the height.
    case vertical
}

/// How much of the split length one part takes, in cells.
public enum Constraint: Sendable, Hashable {
    /// Exactly `n` cells (fewer when the space runs out).
    case fixed(Int)
    /// `numerator / denominator` of the whole length, rounded down.
    /// Integer ratios keep layouts exact and reproducible in tests.
    case ratio(Int, Int)
    /// A share of whatever the fixed and ratio parts leave; several
    /// `remaining` parts split it by weight (extra cells go to the first ones).
    case remaining(weight: Int = 1)

    /// Shorthand for `.remaining(weight: 1)`.
    public static var fill: Constraint { .remaining(weight: 1) }
}

extension Rect {
    /// Splits the rectangle into consecutive parts along `axis`, one per
    /// constraint. Fixed and ratio parts are served first, in order, each
    /// clipped to what is left; `remaining` parts then share the rest. The
    /// parts never overlap and never exceed the rectangle; any may be empty.
    public func split(_ axis: Axis, _ constraints: [Constraint]) -> [Rect] {
        let total = axis == .horizontal ? width : height
        var lengths = [Int](repeating: 0, count: constraints.count)
        var left = total
        for (i, c) in constraints.enumerated() {
            switch c {
            case .fixed(let n):
                lengths[i] = min(max(0, n), left)
            case .ratio(let num, let den):
                let want = den > 0 ? max(0, total * num / den) : 0
                lengths[i] = min(want, left)
            case .remaining:
                continue
            }
            left -= lengths[i]
        }
        let weights = constraints.map { c -> Int in
            if case .remaining(let w) = c { return max(0, w) }
            return 0
        }
        let weightSum = weights.reduce(0, +)
        if weightSum > 0 {
            var given = 0
            for i in lengths.indices where weights[i] > 0 {
                lengths[i] = left * weights[i] / weightSum
                given += lengths[i]
            }
            var extra = left - given
            for i in lengths.indices where weights[i] > 0 && extra > 0 {
                lengths[i] += 1
                extra -= 1
            }
        }
        var offset = 0
        return lengths.map { len in
            defer { offset += len }
            switch axis {
            case .horizontal: return Rect(x: x + offset, y: y, width: len, height: height)
            case .vertical: return Rect(x: x, y: y + offset, width: width, height: len)
            }
        }
    }

    /// The top `rows` rows and the rest below them.
    public func splitTop(_ rows: Int) -> (top: Rect, rest: Rect) {
        let parts = split(.vertical, [.fixed(rows), .fill])
        return (parts[0], parts[1])
    }

    /// The bottom `rows` rows and the rest above them.
    public func splitBottom(_ rows: Int) -> (rest: Rect, bottom: Rect) {
        let n = min(max(0, rows), height)
        let parts = split(.vertical, [.fixed(height - n), .fixed(n)])
        return (parts[0], parts[1])
    }

    /// The left `columns` columns and the rest to their right.
    public func splitLeft(_ columns: Int) -> (left: Rect, rest: Rect) {
        let parts = split(.horizontal, [.fixed(columns), .fill])
        return (parts[0], parts[1])
    }

    /// The right `columns` columns and the rest to their left.
    public func splitRight(_ columns: Int) -> (rest: Rect, right: Rect) {
        let n = min(max(0, columns), width)
        let parts = split(.horizontal, [.fixed(width - n), .fixed(n)])
        return (parts[0], parts[1])
    }

    /// `count` equal parts along `axis` (the first ones one cell larger when
    /// the length does not divide evenly). `count <= 0` gives no parts.
    public func splitEvenly(_ axis: Axis, count: Int) -> [Rect] {
        guard count > 0 else { return [] }
        return split(axis, Array(repeating: .fill, count: count))
    }
}
