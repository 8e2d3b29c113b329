extension FixedWidthInteger {
    /// `value` toward zero, held to this type's range: a NaN is 0, and
    /// anything beyond the range (the infinities too) is the nearest end.
    ///
    /// Every conversion of a measured time (or any `Double`) to a column,
    /// a count of milliseconds or a percentage goes through this rather
    /// than `Int(_:)`, which traps outside the range: a view may be handed
    /// any time (a recording is read with a bound, a pure view is not), and
    /// a time it cannot place must draw clamped, never stop the program.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= Double(Self.max) {
            // `Double(Self.max)` of a 64-bit type is 2⁶³ (or 2⁶⁴), one more
            // than the largest value: at or past it is past the range.
            self = .max
        } else if value <= Double(Self.min) {
            self = .min
        } else {
            self = Self(value)
        }
    }
}
