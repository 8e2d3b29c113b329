import ScenarioKit

/// `/`: the operations whose name holds what is typed, made once per
/// scenario and asked at every keystroke.
///
/// The names are kept lower-cased as UTF-8 bytes in one buffer, so a
/// query is a byte search with no allocation per name: 100,000 names take
/// well under the 5 ms a keystroke may cost (`opscope-bench --only
/// search`). Matching is case-insensitive for ASCII letters and otherwise
/// exact (Swift's `lowercased()` of both sides, compared as bytes).
///
/// The order of the matches: the names that start with the query first,
/// then the others that hold it, each group in the scenario's order (the
/// order the file declares the operations).
public struct NameSearch: Sendable {
    /// All names, lower-cased UTF-8, back to back.
    private let bytes: [UInt8]
    /// Where name `i` starts in `bytes`; one more entry, the end.
    private let starts: [Int]

    public init(_ scenario: Scenario) {
        self.init(names: scenario.operations.map(\.name))
    }

    public init(names: [String]) {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(names.count + 1)
        for name in names {
            starts.append(bytes.count)
            bytes.append(contentsOf: name.lowercased().utf8)
        }
        starts.append(bytes.count)
        self.bytes = bytes
        self.starts = starts
    }

    /// How many names it searches.
    public var count: Int { starts.count - 1 }

    /// The operations whose name holds `query` (any case), names starting
    /// with it first, each group in scenario order, among those `shown`
    /// admits (all when nil). An empty query matches nothing.
    public func matches(_ query: String, shown: OperationMask? = nil) -> [OperationID] {
        let needle = Array(query.lowercased().utf8)
        guard !needle.isEmpty else { return [] }
        var prefixed: [OperationID] = []
        var inside: [OperationID] = []
        bytes.withUnsafeBufferPointer { hay in
            starts.withUnsafeBufferPointer { starts in
                needle.withUnsafeBufferPointer { pin in
                    let first = pin[0]
                    let n = pin.count
                    var start = starts[0]
                    for i in 0..<(starts.count - 1) {
                        let end = starts[i + 1]
                        defer { start = end }
                        guard end - start >= n else { continue }
                        if let shown, !shown.contains(OperationID(i)) { continue }
                        var at = start
                        let last = end - n
                        while at <= last {
                            if hay[at] == first && Self.equal(hay, at, pin, n) {
                                if at == start {
                                    prefixed.append(OperationID(i))
                                } else {
                                    inside.append(OperationID(i))
                                }
                                break
                            }
                            at += 1
                        }
                    }
                }
            }
        }
        return prefixed + inside
    }

    @inline(__always)
    private static func equal(
        _ hay: UnsafeBufferPointer<UInt8>, _ at: Int, _ pin: UnsafeBufferPointer<UInt8>, _ n: Int
    ) -> Bool {
        var k = 1
        while k < n {
            if hay[at + k] != pin[k] { return false }
            k += 1
        }
        return true
    }
}

/// A set of operations as one bit each: which cards a filter lets show.
/// Cheap to ask per card while a frame is drawn.
public struct OperationMask: Sendable, Hashable {
    private var words: [UInt64]
    /// The operations it can hold (`OperationID.index` below this).
    public let capacity: Int
    /// How many it holds.
    public private(set) var count = 0

    /// Empty, or holding all `capacity` operations.
    public init(capacity: Int, all: Bool = false) {
        self.capacity = capacity
        words = [UInt64](repeating: 0, count: (capacity + 63) / 64)
        if all { for i in 0..<capacity { insert(OperationID(i)) } }
    }

    public func contains(_ op: OperationID) -> Bool {
        op.index >= 0 && op.index < capacity && words[op.index >> 6] & (1 << UInt64(op.index & 63)) != 0
    }

    public mutating func insert(_ op: OperationID) {
        guard op.index >= 0 && op.index < capacity, !contains(op) else { return }
        words[op.index >> 6] |= 1 << UInt64(op.index & 63)
        count += 1
    }

    public mutating func remove(_ op: OperationID) {
        guard contains(op) else { return }
        words[op.index >> 6] &= ~(1 << UInt64(op.index & 63))
        count -= 1
    }
}
