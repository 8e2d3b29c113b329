extension Duration {
    /// The duration in seconds, for clocks and for printing.
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }

    /// A duration from a number of (possibly fractional) seconds.
    public static func scenarioSeconds(_ value: Double) -> Duration {
        let ns = value * 1e9
        return .nanoseconds(Int64(ns >= 0 ? ns + 0.5 : ns - 0.5))
    }
}
