import RunEvents

/// JSON's numbers as bytes (its strings are `RunEvents`' `JSONBytes`).
extension JSONBytes {
    static func appendInt(_ value: Int, to out: inout [UInt8]) {
        appendWritten(to: &out) { $0.putInt(value) }
    }

    /// Scenario seconds with three decimals, exactly as
    /// `Spelling.secondsNumber` writes them.
    static func appendSeconds(_ t: Double, to out: inout [UInt8]) {
        appendWritten(to: &out) { $0.putSeconds(t) }
    }

    /// What `body` writes (at most 32 bytes: a number), appended with one copy.
    static func appendWritten(to out: inout [UInt8], _ body: (inout ByteCursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var cursor = ByteCursor(buffer.baseAddress!)
            body(&cursor)
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.written(since: buffer)))
        }
    }
}

/// Writes bytes through a pointer into a buffer the caller sized: no
/// checks, so each line's room is reckoned before it is written.
struct ByteCursor {
    private var next: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutablePointer<UInt8>) { next = start }

    /// The bytes written since `buffer`'s start.
    func written(since buffer: UnsafeMutableBufferPointer<UInt8>) -> Int { next - buffer.baseAddress! }

    @inline(__always) mutating func put(_ byte: UInt8) {
        next.pointee = byte
        next += 1
    }

    @inline(__always) mutating func put(_ literal: StaticString) {
        next.update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        next += literal.utf8CodeUnitCount
    }

    @inline(__always) mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        next.update(from: base, count: bytes.count)
        next += bytes.count
    }

    /// A value of a key as JSON: `true`, `3`, `"high"` (at most 20 bytes).
    mutating func put(_ value: KeyValue) {
        switch value {
        case .bool(let b): put(b ? "true" : "false")
        case .int(let n): putInt(n)
        case .priority(let p):
            put(UInt8(ascii: "\""))
            for byte in p.rawValue.utf8 { put(byte) }
            put(UInt8(ascii: "\""))
        }
    }

    /// A thread as `ThreadTag.description` spells it, in quotes: `"main"`,
    /// `"#3"` (at most 22 bytes).
    mutating func putThread(_ thread: ThreadTag) {
        if thread.isMain {
            put(#""main""#)
        } else {
            put(##""#"##)
            putInt(thread.number)
            put(UInt8(ascii: "\""))
        }
    }

    /// A whole number (at most 20 bytes).
    mutating func putInt(_ value: Int) {
        if value < 0 { put(UInt8(ascii: "-")) }
        putUnsigned(value.magnitude)
    }

    mutating func putUnsigned(_ value: UInt) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        rest = value
        for i in stride(from: digits - 1, through: 0, by: -1) {
            next[i] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        next += digits
    }

    /// Scenario seconds with three decimals, exactly as
    /// `Spelling.secondsNumber` writes them (at most 16 bytes).
    mutating func putSeconds(_ t: Double) {
        guard t.isFinite, t > 0 else { return put("0.000") }
        let millis = (t * 1000).rounded()
        guard millis < 1e15 else { return put("999999999999.999") }
        let whole = UInt(millis)
        putUnsigned(whole / 1000)
        let frac = whole % 1000
        put(UInt8(ascii: "."))
        put(UInt8(ascii: "0") + UInt8(frac / 100))
        put(UInt8(ascii: "0") + UInt8(frac / 10 % 10))
        put(UInt8(ascii: "0") + UInt8(frac % 10))
    }
}
