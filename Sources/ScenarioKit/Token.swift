/// One lexical token of a scenario file.
///
/// Tokens keep the exact spelling (`text`) so that messages quote what the
/// user wrote, and their true position even on continuation lines.
struct Token: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `[A-Za-z_][A-Za-z0-9_-]*`: keywords and names alike; the parser
        /// decides by position which it is. The word is the token's text.
        case word
        /// A double-quoted string, escapes already resolved.
        case string(String)
        /// A decimal number with an optional unit suffix (`250ms`, `3`, `-1s`).
        /// Interpreted by the parser, which knows whether it needs a whole
        /// number or a duration.
        case number(NumberLiteral)
        case comma
        /// `<=` or `>=` (the token's text), after `peak QUEUE`.
        case bound
    }

    var kind: Kind
    /// The token as written (strings with their quotes).
    var text: String
    var location: SourceLocation

    var word: String? {
        if case .word = kind { return text }
        return nil
    }

    func isWord(_ w: String) -> Bool { word == w }
}

/// The shape of a number as written (`-1.50ms`): its sign, then the
/// lengths of its digits, of its fraction and of its unit within the
/// token's text, so that durations are converted exactly (no floating
/// point) and overflow is a diagnostic, never a trap. Lengths, not
/// strings: a file holds a number on most lines, and each string would be
/// one more to copy and release with every token.
struct NumberLiteral: Sendable, Hashable {
    var isNegative: Bool
    /// ASCII digits before the decimal point (at least one).
    var integerLength: Int
    /// ASCII digits after the decimal point; nil when there is no point.
    var fractionLength: Int?
    /// Letters (and digits) right after the number (`ms`, `s`, or
    /// something wrong); 0 when none.
    var unitLength: Int

    var hasUnit: Bool { unitLength > 0 }
    var hasFraction: Bool { fractionLength != nil }
}

/// One statement: the tokens of one logical line (continuations joined).
struct LexedStatement: Sendable {
    var tokens: [Token]
    /// Where the statement ends (the position of its newline, or one past
    /// the last character at end of file), for "expected … at end of line".
    var end: SourceLocation
    /// A lexical error broke a token of this statement; the parser then
    /// keeps quiet about the syntax of this statement to avoid a cascade.
    var isDamaged: Bool
}
