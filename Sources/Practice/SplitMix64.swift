/// SplitMix64 (Steele, Lea and Flood, 2014): a generator whose every draw
/// depends on its seed alone, the same on every machine and toolchain.
///
/// The question generator draws with this and nothing else. It is not a
/// `RandomNumberGenerator` on purpose: the standard library's
/// `random(in:using:)` and `shuffled(using:)` may change their algorithms
/// from one toolchain to the next, and a seed must name one question for
/// good. So the bounded draw and the shuffle are written here.
public struct SplitMix64: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` ≥ 1), every one equally likely:
    /// draws that would favour the low numbers are thrown away.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound >= 1, "an empty range")
        let b = UInt64(bound)
        let limit = UInt64.max - UInt64.max % b
        while true {
            let x = next()
            if x < limit { return Int(x % b) }
        }
    }

    /// A number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `items` (not empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// `items` in a random order (Fisher–Yates).
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        var i = items.count - 1
        while i > 0 {
            items.swapAt(i, below(i + 1))
            i -= 1
        }
        return items
    }

    /// The seed of the `attempt`th candidate (from 0) of question `seed` at
    /// `level`: distinct for each, and the same on every machine.
    public static func derive(seed: UInt64, level: Int, attempt: Int) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(level) &* 0xA24B_AED4_963E_E407))
        var value = mixer.next()
        for _ in 0..<attempt { value = mixer.next() }
        return value
    }
}
