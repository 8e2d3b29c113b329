import RunEvents

extension EventFormatter {
    /// One JSON object, keys in the order of the language reference
    /// (`JSONLineEncoder`, without its newline). A line alone: a stall's
    /// `causes` know nothing of the lines before it (who suspended a queue).
    public func json(_ event: LifecycleEvent) -> String {
        var bytes: [UInt8] = []
        var encoder = JSONLineEncoder(scenario: scenario, quotesNamesOnce: false)
        encoder.append(event, to: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }
}
