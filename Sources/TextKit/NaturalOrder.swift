/// The order a person expects of names with numbers in them: `decode1`,
/// `decode2`, `decode10` (text order puts `decode10` before `decode2`).
///
/// Runs of ASCII digits compare by their value (leading zeros aside, a
/// longer run is a larger number), everything else byte by byte in
/// UTF-8, which is the order of Unicode scalars. Two names that differ
/// only in leading zeros (`a01`, `a1`) fall back to byte order, so the
/// order is total and a sort by it is the same on every run. No
/// allocation: a table of 100,000 rows sorts by it.
public enum NaturalOrder {
    /// Negative when `a` comes first, positive when `b` does, 0 when equal.
    public static func compare(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in compare(x, y) } }
    }

    /// `a` comes before `b`.
    public static func precedes(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    static func compare(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        var j = 0
        while i < x.count && j < y.count {
            guard isDigit(x[i]) && isDigit(y[j]) else {
                if x[i] != y[j] { return x[i] < y[j] ? -1 : 1 }
                i += 1
                j += 1
                continue
            }
            // Two runs of digits: skip leading zeros, then the longer run
            // is the larger number, then the first differing digit decides.
            while i < x.count && x[i] == 0x30 { i += 1 }
            while j < y.count && y[j] == 0x30 { j += 1 }
            let startX = i
            let startY = j
            while i < x.count && isDigit(x[i]) { i += 1 }
            while j < y.count && isDigit(y[j]) { j += 1 }
            if i - startX != j - startY { return i - startX < j - startY ? -1 : 1 }
            for k in 0..<(i - startX) where x[startX + k] != y[startY + k] {
                return x[startX + k] < y[startY + k] ? -1 : 1
            }
        }
        if x.count - i != y.count - j { return x.count - i < y.count - j ? -1 : 1 }
        // Equal as numbers and text: byte order settles leading zeros.
        return x.elementsEqual(y) ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
