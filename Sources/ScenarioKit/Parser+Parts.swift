import Dispatch

extension Parser {
    /// Files from this size are lexed and parsed in two parts at once.
    static let twoPartBytes = 256 << 10

    /// Lexes and parses `bytes`: a small file in one pass; a large one in
    /// two halves at once, one per core, split where a line ends and no
    /// continuation joins it to the next, and joined in file order.
    ///
    /// Statements are independent of each other (a statement is a line),
    /// so the two halves give exactly the tree and diagnostics of one
    /// pass: the same elements in the same order, the second half's lines
    /// numbered from where it begins. Before a run nothing else uses the
    /// second core, and reading a file of 100,000 operations is otherwise
    /// a third of `opscope trace`'s whole time.
    ///
    /// Given up once `cancellation` says so: what was made so far is
    /// returned, and the caller throws it away.
    static func parse(bytes: [UInt8], cancellation: ReadCancellation? = nil) -> (
        tree: SyntaxTree, lexical: DiagnosticList, syntax: DiagnosticList
    ) {
        guard bytes.count >= twoPartBytes, let split = splitPoint(in: bytes) else {
            var lexer = Lexer(bytes: bytes)
            let (tree, syntax) = parse(&lexer, cancellation: cancellation)
            return (tree, lexer.diagnostics, syntax)
        }
        let parts = [(0..<split.offset, 1), (split.offset..<bytes.count, split.line)]
        let results = PartResults(count: parts.count)
        DispatchQueue.concurrentPerform(iterations: parts.count) { i in
            var lexer = Lexer(bytes: bytes, part: parts[i].0, firstLine: parts[i].1)
            // The first half makes room for the whole file's operations, so
            // that the second half's are appended in place.
            let whole = i == 0 ? Lexer(bytes: bytes).lineCount(unless: cancellation) : nil
            let (tree, syntax) = parse(&lexer, reserving: whole, cancellation: cancellation)
            results.store(i, (tree, lexer.diagnostics, syntax))
        }
        var (tree, lexical, syntax) = results.take(0)
        let (second, secondLexical, secondSyntax) = results.take(1)
        tree.append(second)
        lexical.append(contentsOf: secondLexical)
        syntax.append(contentsOf: secondSyntax)
        return (tree, lexical, syntax)
    }

    /// The first byte of a line near the middle of `bytes` that no
    /// backslash continuation reaches (the line before it has no `\` at
    /// all), and that line's number; nil when none is found.
    static func splitPoint(in bytes: [UInt8]) -> (offset: Int, line: Int)? {
        bytes.withUnsafeBufferPointer { buffer -> (offset: Int, line: Int)? in
            let newline = UInt8(ascii: "\n")
            let backslash = UInt8(ascii: "\\")
            var line = 1
            var sawBackslash = false
            for i in 0..<buffer.count {
                let byte = buffer[i]
                if byte == backslash { sawBackslash = true }
                guard byte == newline else { continue }
                line += 1
                if i >= buffer.count / 2, !sawBackslash, i + 1 < buffer.count {
                    return (i + 1, line)
                }
                sawBackslash = false
            }
            return nil
        }
    }
}

/// The two halves' results, each written by its own thread once.
private final class PartResults: @unchecked Sendable {
    private var slots: [(SyntaxTree, DiagnosticList, DiagnosticList)?]
    private let lock = DispatchSemaphore(value: 1)

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func store(_ i: Int, _ result: (SyntaxTree, DiagnosticList, DiagnosticList)) {
        lock.wait()
        slots[i] = result
        lock.signal()
    }

    func take(_ i: Int) -> (SyntaxTree, DiagnosticList, DiagnosticList) {
        lock.wait()
        defer { lock.signal() }
        return slots[i] ?? (SyntaxTree(), DiagnosticList(), DiagnosticList())
    }
}

extension SyntaxTree {
    /// Appends what `later` (the tree of the lines after this one's) holds.
    mutating func append(_ later: SyntaxTree) {
        titles += later.titles
        notes += later.notes
        queues += later.queues
        operations += later.operations
        actions += later.actions
        expectations += later.expectations
        quizzes += later.quizzes
        speeds += later.speeds
        captions += later.captions
    }
}
