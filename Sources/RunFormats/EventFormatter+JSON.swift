import RunEvents

extension EventFormatter {
    /// One JSON object, keys in the order of the language reference
    /// (`JSONLineEncoder`, without its newline).
    public func json(_ event: LifecycleEvent) -> String {
        var bytes: [UInt8] = []
        JSONLineEncoder(scenario: scenario, quotesNamesOnce: false).append(event, to: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }
}
