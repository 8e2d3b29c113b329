/// Turns the raw bytes of a scenario file into statements of tokens, one
/// statement at a time (`next()`), so that the parser takes each as it
/// comes and a file of a million lines never holds a million statements.
///
/// Works on bytes, not on a `String`, because the file is not trusted to be
/// UTF-8: an ill-formed byte or a NUL is an error at its exact position
/// (columns count Unicode scalars; each bad byte counts as one column) and
/// lexing goes on. Nothing here can trap on input: every index is checked
/// and numbers are kept as digits for the parser to convert with overflow
/// checks.
struct Lexer {
    private let bytes: [UInt8]
    private var index: Int
    /// Where the lexer stops: the end of the file, or of its part of it.
    private let end: Int
    private var line: Int
    private var column = 1
    /// Byte index just after the last ill-formed byte reported, so a run of
    /// bad bytes gives one diagnostic, not one per byte.
    private var endOfLastBadByte = -1

    /// A statement completed by the last step, for `next()` to return.
    private var completed: LexedStatement?
    private var tokens: [Token] = []
    private var damaged = false
    private(set) var diagnostics = DiagnosticList()

    init(bytes: [UInt8]) {
        self.init(bytes: bytes, part: 0..<bytes.count, firstLine: 1)
    }

    /// Lexes only `part` of `bytes`, which begins a line (numbered
    /// `firstLine`) and ends after a newline or at the end of the file.
    init(bytes: [UInt8], part: Range<Int>, firstLine: Int) {
        self.bytes = bytes
        index = max(0, part.lowerBound)
        end = min(bytes.count, part.upperBound)
        line = firstLine
    }

    private var finished = false

    /// The most tokens one statement holds: beyond them a statement (a
    /// line of 50 MB of words) is an error, and its further tokens are
    /// lexed but not kept, so that one line never holds gigabytes.
    static let maximumTokens = 1_000_000

    /// Keeps `token` in the statement, unless it already holds
    /// `maximumTokens`: then the statement is damaged, said once.
    private mutating func keep(_ token: Token) {
        guard tokens.count < Self.maximumTokens else {
            if tokens.count == Self.maximumTokens {
                diagnostics.append(.statementTooLong(Self.maximumTokens, at: token.location))
                damaged = true
                // Counted once: the statement is marked by one more slot.
                tokens.append(token)
            }
            return
        }
        tokens.append(token)
    }

    /// The number of lines in the file (an upper bound on its statements).
    var lineCount: Int { lineCount(unless: nil) }

    /// `lineCount`, given up (with the count so far) once `cancellation`
    /// says so.
    func lineCount(unless cancellation: ReadCancellation?) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var count = 1
            var from = index
            while from < end {
                let to = min(end, from + ReadCancellation.bytesBetween)
                for byte in buffer[from..<to] where byte == UInt8(ascii: "\n") { count += 1 }
                if cancellation.isCancelled { break }
                from = to
            }
            return count
        }
    }

    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private func byte(at i: Int) -> UInt8? { i < end ? bytes[i] : nil }

    /// The next non-empty statement, nil at the end of the file; the
    /// diagnostics so far are in `diagnostics`.
    mutating func next() -> LexedStatement? {
        while index < end {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                advance(1)
            case UInt8(ascii: "\n"):
                endStatement()
                newLine()
            case UInt8(ascii: "#"):
                skipComment()
            case UInt8(ascii: "\""):
                lexString()
            case UInt8(ascii: ","):
                keep(Token(kind: .comma, text: ",", location: location))
                advance(1)
            case UInt8(ascii: "<") where byte(at: index + 1) == UInt8(ascii: "="),
                UInt8(ascii: ">") where byte(at: index + 1) == UInt8(ascii: "="):
                // `peak q <= 3`: a bound, never a name.
                let text = b == UInt8(ascii: "<") ? "<=" : ">="
                keep(Token(kind: .bound, text: text, location: location))
                advance(2)
            case UInt8(ascii: "\\"):
                lexBackslash()
            case _ where Self.isWordStart(b):
                lexWord()
            case _ where Self.isDigit(b):
                lexNumber()
            case UInt8(ascii: "-") where byte(at: index + 1).map(Self.isDigit) == true:
                lexNumber()
            default:
                lexStrayCharacter()
            }
            if let statement = completed {
                completed = nil
                return statement
            }
        }
        if !finished {
            finished = true
            endStatement()
        }
        defer { completed = nil }
        return completed
    }

    // MARK: Positions

    private mutating func advance(_ byteCount: Int) {
        index += byteCount
        column += byteCount
    }

    private mutating func newLine() {
        index += 1
        line += 1
        column = 1
    }

    private mutating func endStatement() {
        if !tokens.isEmpty {
            completed = LexedStatement(tokens: tokens, end: location, isDamaged: damaged)
            // The statement takes the buffer; the next one fills the buffer
            // of one handed back (`recycle`), or a new one.
            swap(&tokens, &spare)
        }
        tokens.removeAll(keepingCapacity: true)
        damaged = false
    }

    /// A statement's tokens, once read: the buffer of the next statement
    /// but one, so that a file of a million statements does not allocate
    /// a million arrays.
    private var spare: [Token] = []

    /// Hands back a statement `next()` gave, once its tokens are no longer
    /// needed.
    mutating func recycle(_ statement: consuming LexedStatement) {
        spare = statement.tokens
    }

    // MARK: Character classes (ASCII only: names are ASCII)

    static func isWordStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_")
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    static func isWordContinuation(_ b: UInt8) -> Bool {
        isWordStart(b) || isDigit(b) || b == UInt8(ascii: "-")
    }

    // MARK: Tokens

    /// The text of `range`, read in place: a slice of `bytes` would retain
    /// and release the file's buffer for each token, a count that both
    /// halves of a file read in two parts share.
    private func text(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        }
    }

    private mutating func lexWord() {
        let start = index
        let startLocation = location
        var stop = index + 1
        while stop < end && Self.isWordContinuation(bytes[stop]) { stop += 1 }
        let text = text(start..<stop)
        keep(Token(kind: .word, text: text, location: startLocation))
        advance(stop - start)
    }

    private mutating func lexNumber() {
        let start = index
        let startLocation = location
        var i = index
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        let integerStart = i
        while i < end && Self.isDigit(bytes[i]) { i += 1 }
        let integerLength = i - integerStart
        var fractionLength: Int? = nil
        var malformed = false
        if i < end && bytes[i] == UInt8(ascii: ".") {
            let fractionStart = i + 1
            var j = fractionStart
            while j < end && Self.isDigit(bytes[j]) { j += 1 }
            if j == fractionStart { malformed = true }
            fractionLength = j - fractionStart
            i = j
        }
        let unitStart = i
        if i < end && Self.isWordStart(bytes[i]) {
            while i < end && (Self.isWordStart(bytes[i]) || Self.isDigit(bytes[i])) { i += 1 }
        }
        let text = text(start..<i)
        advance(i - start)
        if malformed {
            diagnostics.append(.malformedNumber(text, at: startLocation))
            damaged = true
            return
        }
        let literal = NumberLiteral(
            isNegative: negative, integerLength: integerLength, fractionLength: fractionLength,
            unitLength: i - unitStart)
        keep(Token(kind: .number(literal), text: text, location: startLocation))
    }

    /// A double-quoted string on one line; `\"` and `\\` are its only
    /// escapes. An unterminated string still becomes a token (with what was
    /// read) so the statement can be checked further.
    private mutating func lexString() {
        let start = index
        let startLocation = location
        var value = String.UnicodeScalarView()
        advance(1)
        var terminated = false
        while index < end {
            let b = bytes[index]
            if b == UInt8(ascii: "\n") { break }
            if b == UInt8(ascii: "\"") {
                advance(1)
                terminated = true
                break
            }
            if b == UInt8(ascii: "\\") {
                let escapeLocation = location
                guard let next = byte(at: index + 1), next != UInt8(ascii: "\n") else {
                    advance(1)
                    break
                }
                if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") {
                    value.append(Unicode.Scalar(next))
                    advance(2)
                    continue
                }
                advance(1)
                let (scalar, length) = UTF8Scanner.scalar(in: bytes, at: index)
                if let scalar, scalar.value != 0 {
                    diagnostics.append(.unknownEscape("\\" + String(Character(scalar)), at: escapeLocation))
                    value.append(scalar)
                    index += length
                    column += 1
                }
                // An ill-formed byte after the backslash is reported below.
                continue
            }
            let (scalar, length) = UTF8Scanner.scalar(in: bytes, at: index)
            if let scalar, scalar.value != 0 {
                value.append(scalar)
                index += length
                column += 1
            } else {
                reportBadByte(b)
                value.append("\u{FFFD}")
                advance(1)
            }
        }
        if !terminated {
            diagnostics.append(.unterminatedString(at: startLocation))
        }
        let text = UTF8Scanner.lossyString(bytes, start..<index)
        keep(Token(kind: .string(String(value)), text: text, location: startLocation))
    }

    /// From `#` to the end of the line. The comment is skipped, but its
    /// bytes must still be well-formed UTF-8.
    private mutating func skipComment() {
        while index < end && bytes[index] != UInt8(ascii: "\n") {
            let (scalar, length) = UTF8Scanner.scalar(in: bytes, at: index)
            if let scalar, scalar.value != 0 {
                index += length
                column += 1
            } else {
                reportBadByte(bytes[index])
                advance(1)
            }
        }
    }

    /// `\` at the end of a line (spaces and a comment may follow it)
    /// continues the statement on the next line; anywhere else it is an error.
    private mutating func lexBackslash() {
        let backslashLocation = location
        advance(1)
        while let b = byte(at: index),
            b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\r")
        {
            advance(1)
        }
        if byte(at: index) == UInt8(ascii: "#") { skipComment() }
        if index >= end { return }
        if bytes[index] == UInt8(ascii: "\n") {
            newLine()
            return
        }
        diagnostics.append(.strayBackslash(at: backslashLocation))
        damaged = true
    }

    /// Anything that cannot start a token: an ill-formed byte, a NUL, or a
    /// character that has no meaning outside strings and comments.
    private mutating func lexStrayCharacter() {
        let b = bytes[index]
        let (scalar, length) = UTF8Scanner.scalar(in: bytes, at: index)
        damaged = true
        if let scalar, scalar.value != 0 {
            diagnostics.append(.unexpectedCharacter(String(Character(scalar)), at: location))
            index += length
            column += 1
        } else {
            reportBadByte(b)
            advance(1)
        }
    }

    /// Reports a NUL or an ill-formed byte at the current position, once per
    /// run of adjacent bad bytes. Does not move.
    private mutating func reportBadByte(_ b: UInt8) {
        defer { endOfLastBadByte = index + 1 }
        if index == endOfLastBadByte { return }
        diagnostics.append(b == 0 ? .nulByte(at: location) : .invalidUTF8(b, at: location))
    }
}
