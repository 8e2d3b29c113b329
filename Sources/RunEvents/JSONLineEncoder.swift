import ScenarioKit

/// Writes events as JSON Lines (SCENARIO-LANGUAGE.md, "The event stream")
/// straight into a byte buffer: no `String` per line, and with the names of
/// the scenario's operations and queues quoted once, at the start.
///
/// `EventFormatter.json(_:)` is this encoder without the table of names, so
/// there is one way a line is written.
public struct JSONLineEncoder: Sendable {
    public let scenario: Scenario
    private let operationNames: QuotedNames
    private let queueNames: QuotedNames
    /// The queue of each operation, read on every event of an operation.
    private let queueOfOperation: [QueueID]

    /// - Parameter quotesNamesOnce: quote every name now (for a whole
    ///   stream), or each time it is written (for a line now and then).
    public init(scenario: Scenario, quotesNamesOnce: Bool = true) {
        self.scenario = scenario
        operationNames = QuotedNames(quotesNamesOnce ? scenario.operations.map(\.name) : [])
        queueNames = QuotedNames(quotesNamesOnce ? scenario.queues.map(\.name) : [])
        queueOfOperation = scenario.operations.map(\.queue)
    }

    /// What a recording is and who wrote it: its first line.
    public struct Header: Sendable {
        public var opscope: String
        public var language: Int
        public var path: String
        public var source: String
        /// The recording format's version: this opscope's when it writes a
        /// run; a recording read back keeps its own, so that one of
        /// version 1 (no `dispatched` lines, none claimed) is written again
        /// as version 1.
        public var version: Int

        public init(
            opscope: String, language: Int, path: String, source: String,
            version: Int = JSONLineEncoder.recordingVersion
        ) {
            self.opscope = opscope
            self.language = language
            self.path = path
            self.source = source
            self.version = version
        }
    }

    /// The name and version of the recording format, in every header.
    public static let recordingFormat = "opscope-recording"
    /// 2: `dispatched` lines. A version-1 recording (none) is still read.
    public static let recordingVersion = 2

    /// The first line of a recording: the scenario's whole text, so that a
    /// recording stands alone (SCENARIO-LANGUAGE.md, "Recordings").
    public static func appendHeader(_ header: Header, to out: inout [UInt8]) {
        out.appendLiteral(#"{"kind":"header","format":"#)
        JSONBytes.appendQuoted(recordingFormat, to: &out)
        out.appendLiteral(#","version":"#)
        JSONBytes.appendInt(header.version, to: &out)
        out.appendLiteral(#","opscope":"#)
        JSONBytes.appendQuoted(header.opscope, to: &out)
        out.appendLiteral(#","language":"#)
        JSONBytes.appendInt(header.language, to: &out)
        out.appendLiteral(#","path":"#)
        JSONBytes.appendQuoted(header.path, to: &out)
        out.appendLiteral(#","source":"#)
        JSONBytes.appendQuoted(header.source, to: &out)
        out.appendLiteral("}\n")
    }

    /// A whole recording of `events`, header first, as `trace --format
    /// jsonl` writes it (for a run kept in memory: the interface's `W`).
    public static func recording(
        _ header: Header, of scenario: Scenario, events: some Sequence<LifecycleEvent>
    ) -> [UInt8] {
        var out: [UInt8] = []
        appendHeader(header, to: &out)
        let encoder = JSONLineEncoder(scenario: scenario)
        for event in events { encoder.append(event, to: &out) }
        return out
    }

    /// Appends one JSON object, keys in the order of the language reference,
    /// and a newline.
    public func append(_ event: LifecycleEvent, to out: inout [UInt8]) {
        if case .operation(let op, let key, let old, let new) = event.kind,
            appendOperationChange(event, op, key, old: old, new: new, to: &out)
        {
            return
        }
        out.appendLiteral(#"{"seq":"#)
        JSONBytes.appendInt(event.seq, to: &out)
        out.appendLiteral(#","t":"#)
        JSONBytes.appendSeconds(event.time, to: &out)
        switch event.kind {
        case .operation(let op, let key, let old, let new):
            out.appendLiteral(#","kind":"op","op":"#)
            appendOperation(op, to: &out)
            out.appendLiteral(#","queue":"#)
            appendQueue(queueOfOperation[op.index], to: &out)
            appendChange(Self.literal(key), old: old, new: new, to: &out)
            if let thread = event.thread {
                out.appendLiteral(#","thread":"#)
                Self.appendThread(thread, to: &out)
            }
        case .queue(let q, let key, let old, let new):
            out.appendLiteral(#","kind":"queue","queue":"#)
            appendQueue(q, to: &out)
            appendChange(Self.literal(key), old: old, new: new, to: &out)
        case .dispatched(let op):
            out.appendLiteral(#","kind":"dispatched","op":"#)
            appendOperation(op, to: &out)
            out.appendLiteral(#","queue":"#)
            appendQueue(queueOfOperation[op.index], to: &out)
        case .block(let op, let index, let phase, let thread):
            out.appendLiteral(#","kind":"block","op":"#)
            appendOperation(op, to: &out)
            out.appendLiteral(#","index":"#)
            JSONBytes.appendInt(index, to: &out)
            out.appendLiteral(#","phase":""#)
            out.append(contentsOf: phase.rawValue.utf8)
            out.appendLiteral(#"","thread":"#)
            Self.appendThread(thread, to: &out)
        case .completion(let op, let thread):
            out.appendLiteral(#","kind":"completion","op":"#)
            appendOperation(op, to: &out)
            out.appendLiteral(#","thread":"#)
            Self.appendThread(thread, to: &out)
        case .action(let action, let origin, let ignored):
            out.appendLiteral(#","kind":"action""#)
            appendAction(action, to: &out)
            switch origin {
            case .timed: out.appendLiteral(#","origin":"at""#)
            case .completion(let op):
                out.appendLiteral(#","origin":"completion","by":"#)
                appendOperation(op, to: &out)
            case .user: out.appendLiteral(#","origin":"user""#)
            }
            if let ignored {
                out.appendLiteral(#","ignored":"#)
                JSONBytes.appendQuoted(ignored.text, to: &out)
            }
        case .caption(let index, let paused):
            out.appendLiteral(#","kind":"caption""#)
            if scenario.captions.indices.contains(index) {
                let caption = scenario.captions[index]
                out.appendLiteral(#","text":"#)
                JSONBytes.appendQuoted(caption.text, to: &out)
                if case .when(let op, let moment) = caption.trigger {
                    out.appendLiteral(#","op":"#)
                    appendOperation(op, to: &out)
                    out.appendLiteral(#","moment":""#)
                    out.append(contentsOf: moment.rawValue.utf8)
                    out.append(UInt8(ascii: "\""))
                }
            }
            if paused { out.appendLiteral(#","paused":true"#) }
        case .stall(let stuck):
            out.appendLiteral(#","kind":"stall","stuck":"#)
            appendStuck(stuck, waiting: true, to: &out)
        case .end(.completed):
            out.appendLiteral(#","kind":"end","status":"completed""#)
        case .end(.stalled(let stuck)):
            out.appendLiteral(#","kind":"end","status":"stalled","stuck":"#)
            appendStuck(stuck, waiting: false, to: &out)
        }
        out.appendLiteral("}\n")
    }

    /// The line of an operation's change, the stream's commonest (some six
    /// an operation), written through a pointer into a small buffer and
    /// appended with one copy: piece by piece, each of its dozen appends
    /// checks the array's room and uniqueness. The same bytes as the
    /// general path; false (nothing written) when a name is not in the
    /// table or too long for the buffer.
    private func appendOperationChange(
        _ event: LifecycleEvent, _ op: OperationID, _ key: OperationKey, old: KeyValue?, new: KeyValue,
        to out: inout [UInt8]
    ) -> Bool {
        let queue = queueOfOperation[op.index]
        return operationNames.withQuoted(op.index) { opName in
            queueNames.withQuoted(queue.index) { queueName in
                // Two names, six numbers of up to 20 digits, two priorities
                // and the literals: well under 256 bytes besides the names.
                let room = opName.count + queueName.count + 256
                guard room <= Self.lineRoom else { return false }
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.lineRoom) { buffer in
                    var line = ByteCursor(buffer.baseAddress!)
                    line.put(#"{"seq":"#)
                    line.putInt(event.seq)
                    line.put(#","t":"#)
                    line.putSeconds(event.time)
                    line.put(#","kind":"op","op":"#)
                    line.put(opName)
                    line.put(#","queue":"#)
                    line.put(queueName)
                    line.put(#","key":""#)
                    line.put(Self.literal(key))
                    line.put(#"","old":"#)
                    if let old { line.put(old) } else { line.put("null") }
                    line.put(#","new":"#)
                    line.put(new)
                    if let thread = event.thread {
                        line.put(#","thread":"#)
                        if thread.isMain {
                            line.put(#""main""#)
                        } else {
                            line.put(##""#"##)
                            line.putInt(thread.number)
                            line.put(UInt8(ascii: "\""))
                        }
                    }
                    line.put("}\n")
                    out.append(
                        contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: line.written(since: buffer)))
                }
                return true
            } ?? false
        } ?? false
    }

    /// The buffer an operation's change is written in.
    private static let lineRoom = 1024

    // MARK: - Pieces

    private func appendOperation(_ op: OperationID, to out: inout [UInt8]) {
        operationNames.append(op.index, orQuote: scenario[operation: op].name, to: &out)
    }

    private func appendQueue(_ q: QueueID, to out: inout [UInt8]) {
        queueNames.append(q.index, orQuote: scenario[queue: q].name, to: &out)
    }

    /// `,"key":"isReady","old":null,"new":true`
    private func appendChange(_ key: StaticString, old: KeyValue?, new: KeyValue, to out: inout [UInt8]) {
        out.appendLiteral(#","key":""#)
        out.appendLiteral(key)
        out.appendLiteral(#"","old":"#)
        if let old { Self.appendValue(old, to: &out) } else { out.appendLiteral("null") }
        out.appendLiteral(#","new":"#)
        Self.appendValue(new, to: &out)
    }

    private static func appendValue(_ value: KeyValue, to out: inout [UInt8]) {
        JSONBytes.appendWritten(to: &out) { $0.put(value) }
    }

    private static func literal(_ key: OperationKey) -> StaticString {
        switch key {
        case .isReady: "isReady"
        case .isExecuting: "isExecuting"
        case .isFinished: "isFinished"
        case .isCancelled: "isCancelled"
        case .queuePriority: "queuePriority"
        }
    }

    private static func literal(_ key: QueueKey) -> StaticString {
        switch key {
        case .isSuspended: "isSuspended"
        case .maxConcurrentOperationCount: "maxConcurrentOperationCount"
        case .operationCount: "operationCount"
        }
    }

    private static func appendThread(_ thread: ThreadTag, to out: inout [UInt8]) {
        if thread.isMain {
            out.appendLiteral(#""main""#)
        } else {
            out.appendLiteral(##""#"##)
            JSONBytes.appendInt(thread.number, to: &out)
            out.append(UInt8(ascii: "\""))
        }
    }

    /// `,"action":"max","target":"net","value":4`
    private func appendAction(_ action: Action, to out: inout [UInt8]) {
        func head(_ name: String) {
            out.appendLiteral(#","action":""#)
            out.append(contentsOf: name.utf8)
            out.appendLiteral(#"","target":"#)
        }
        switch action {
        case .cancel(let op):
            head("cancel")
            appendOperation(op, to: &out)
        case .cancelAll(let q):
            head("cancel-all")
            appendQueue(q, to: &out)
        case .suspend(let q):
            head("suspend")
            appendQueue(q, to: &out)
        case .resume(let q):
            head("resume")
            appendQueue(q, to: &out)
        case .setCap(let q, let cap):
            head("max")
            appendQueue(q, to: &out)
            out.appendLiteral(#","value":"#)
            if cap == .systemDefault {
                out.appendLiteral(#""default""#)
            } else {
                JSONBytes.appendInt(cap.foundationValue, to: &out)
            }
        case .setPriority(let op, let level):
            head("priority")
            appendOperation(op, to: &out)
            out.appendLiteral(#","value":""#)
            out.append(contentsOf: level.rawValue.utf8)
            out.append(UInt8(ascii: "\""))
        case .add(let op):
            head("add")
            appendOperation(op, to: &out)
        }
    }

    /// `{"OP":"REASON",…}`, operations in scenario order.
    private func appendStuck(_ stuck: [OperationID: StuckReason], waiting: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (n, op) in stuck.keys.sorted().enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            appendOperation(op, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONBytes.appendQuoted(stuck[op]!.clause(in: scenario, waiting: waiting), to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// Names quoted as JSON strings, one after another in one buffer.
private struct QuotedNames: Sendable {
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

/// JSON's pieces as bytes.
enum JSONBytes {
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

    /// A JSON string literal: quotes, backslashes and control characters
    /// escaped, everything else as its UTF-8. The runs between escapes go
    /// in with one copy each: a header carries a whole scenario file.
    static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var start = 0
            for i in 0..<bytes.count {
                let byte = bytes[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                appendEscaped(byte, to: &out)
                start = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape of a quote, a backslash or a control character.
    private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.appendLiteral(#"\""#)
        case UInt8(ascii: "\\"): out.appendLiteral(#"\\"#)
        case UInt8(ascii: "\n"): out.appendLiteral(#"\n"#)
        case UInt8(ascii: "\r"): out.appendLiteral(#"\r"#)
        case UInt8(ascii: "\t"): out.appendLiteral(#"\t"#)
        default:
            let hex: StaticString = "0123456789abcdef"
            out.appendLiteral(#"\u00"#)
            hex.withUTF8Buffer { digits in
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0xF)])
            }
        }
    }
}

extension [UInt8] {
    /// Appends a literal's UTF-8 bytes with one copy.
    @inline(__always) mutating func appendLiteral(_ literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
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
