import RunEvents

/// Names quoted as JSON strings, one after another in one buffer.
struct QuotedNames: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int32] = []

    init(_ names: [String]) {
        guard !names.isEmpty else { return }
        ends.reserveCapacity(names.count)
        bytes.reserveCapacity(names.count * 10)
        for name in names {
            JSONBytes.appendQuoted(name, to: &bytes)
            ends.append(Int32(truncatingIfNeeded: bytes.count))
        }
        // A table past 2 GB would not fit the offsets: quote as we go.
        if bytes.count > Int(Int32.max) {
            bytes = []
            ends = []
        }
    }

    /// `body` with the quoted name at `index`; nil when the table has none.
    func withQuoted<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard ends.indices.contains(index) else { return nil }
        let start = index == 0 ? 0 : Int(ends[index - 1])
        return bytes.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[start..<Int(ends[index])]))
        }
    }

    func append(_ index: Int, orQuote name: @autoclosure () -> String, to out: inout [UInt8]) {
        guard ends.indices.contains(index) else {
            JSONBytes.appendQuoted(name(), to: &out)
            return
        }
        let start = index == 0 ? 0 : Int(ends[index - 1])
        out.append(contentsOf: bytes[start..<Int(ends[index])])
    }
}
