import FoundationRules
import TextKit

/// Reads the tokens of one statement, with helpers that either return the
/// value the grammar needs or throw the diagnostic that says what was
/// expected (the parser then drops the rest of the statement and resumes at
/// the next one).
struct StatementCursor {
    let tokens: [Token]
    /// Where a missing token would have been (the end of the statement).
    let end: SourceLocation
    private(set) var position = 0

    init(_ statement: LexedStatement) {
        tokens = statement.tokens
        end = statement.end
    }

    var isAtEnd: Bool { position >= tokens.count }

    func peek(_ offset: Int = 0) -> Token? {
        let i = position + offset
        return i < tokens.count ? tokens[i] : nil
    }

    mutating func next() -> Token? {
        guard position < tokens.count else { return nil }
        defer { position += 1 }
        return tokens[position]
    }

    /// Consumes a comma if one comes next.
    mutating func skipComma() -> Bool {
        guard case .comma? = peek()?.kind else { return false }
        position += 1
        return true
    }

    /// The failure for "expected WHAT after AFTER" at the next token, or at
    /// the end of the statement when there is none.
    func expected(_ what: String, after: String) -> ParseFailure {
        if let token = peek() {
            return ParseFailure(.expected(what, after: after, found: token.text, at: token.location))
        }
        return ParseFailure(.expected(what, after: after, found: nil, at: end))
    }

    mutating func name(after: String) throws(ParseFailure) -> Name {
        guard let token = peek(), let word = token.word else {
            throw expected("a name", after: after)
        }
        position += 1
        return Name(text: word, location: token.location)
    }

    /// The keyword `expected`, next: `depends on`, `completion of A before B starts`.
    mutating func word(_ expected: String, after: String) throws(ParseFailure) {
        guard let token = peek(), token.isWord(expected) else { throw self.expected("'\(expected)'", after: after) }
        position += 1
    }

    /// `NAME, NAME, …` (at least one name).
    mutating func names(after: String) throws(ParseFailure) -> [Name] {
        var list = [try name(after: after)]
        while skipComma() {
            list.append(try name(after: ","))
        }
        return list
    }

    mutating func string(after: String) throws(ParseFailure) -> String {
        guard let token = peek(), case .string(let value) = token.kind else {
            throw expected("a quoted string", after: after)
        }
        position += 1
        return value
    }

    mutating func duration(after: String) throws(ParseFailure) -> Located<Duration> {
        guard let token = peek(), case .number(let literal) = token.kind else {
            throw expected("a duration", after: after)
        }
        position += 1
        return Located(value: try literal.duration(text: token.text, at: token.location), location: token.location)
    }

    /// A whole number (sign allowed; the caller checks the range).
    mutating func wholeNumber(after: String) throws(ParseFailure) -> Located<Int> {
        guard let token = peek(), case .number(let literal) = token.kind,
            let n = try literal.wholeNumber(text: token.text, at: token.location)
        else {
            throw expected("a whole number", after: after)
        }
        position += 1
        return Located(value: n, location: token.location)
    }

    /// A level word (`high`, `utility`…) of an enum spelled by its raw values.
    mutating func level<Level: RawRepresentable<String>>(
        _ type: Level.Type, after: String, words: [String],
        unknown: (String, String?, SourceLocation) -> Diagnostic
    ) throws(ParseFailure) -> Level {
        guard let token = peek(), let word = token.word else {
            throw expected(type == PriorityLevel.self ? "a priority" : "a quality of service", after: after)
        }
        guard let level = Level(rawValue: word) else {
            throw ParseFailure(unknown(word, Suggestion.nearest(to: word, in: words), token.location))
        }
        position += 1
        return level
    }
}

/// A syntax error that ends the parse of the current statement.
struct ParseFailure: Error {
    var diagnostic: Diagnostic
    init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }
}
