import FoundationRules
import TextKit

/// Turns lexed statements into a `SyntaxTree`, collecting every syntax error.
///
/// One statement is one line (continuations joined by the lexer), so
/// recovery is simple and total: a syntax error ends the statement it is
/// in and parsing resumes at the next one, so every error of a file is
/// reported. Errors that do not lose the thread (a clause given twice, a
/// conflicting body) are reported and parsing of the statement goes on.
///
/// A declaration whose statement had an error is still recorded (with what
/// was read), so that its name is known and references to it do not cause
/// a second, misleading "unknown name" error.
struct Parser {
    var tree = SyntaxTree()
    private(set) var diagnostics = DiagnosticList()
    /// The current statement already has a lexical error: its syntax
    /// errors would only echo it, so they are not reported.
    private var statementIsDamaged = false

    /// Parses each statement `lexer` gives as it gives it.
    /// `reserving` is the room for operations to make at once (a line
    /// holds at most one declaration); by default the lexer's line count.
    /// Given up, with what it made so far, once `cancellation` says so.
    static func parse(
        _ lexer: inout Lexer, reserving capacity: Int? = nil, cancellation: ReadCancellation? = nil
    ) -> (tree: SyntaxTree, diagnostics: DiagnosticList) {
        var parser = Parser()
        // Sized once: growing an array of 100,000 operations by doubling
        // copies and faults in each of them again, a fifth of the whole read.
        parser.tree.operations.reserveCapacity(capacity ?? lexer.lineCount(unless: cancellation))
        var untilLook = ReadCancellation.statementsBetween
        while let statement = lexer.next() {
            parser.parse(statement)
            lexer.recycle(consume statement)
            untilLook -= 1
            if untilLook == 0 {
                if cancellation.isCancelled { break }
                untilLook = ReadCancellation.statementsBetween
            }
        }
        return (parser.tree, parser.diagnostics)
    }

    private mutating func parse(_ statement: LexedStatement) {
        statementIsDamaged = statement.isDamaged
        var cursor = StatementCursor(statement)
        do throws(ParseFailure) {
            try parseStatement(&cursor)
        } catch {
            if !statementIsDamaged { diagnostics.append(error.diagnostic) }
        }
    }

    /// Reports an error that does not end the statement (unless the
    /// statement already has a lexical error, which it would only echo).
    mutating func report(_ diagnostic: Diagnostic) {
        if !statementIsDamaged { diagnostics.append(diagnostic) }
    }

    private mutating func parseStatement(_ cursor: inout StatementCursor) throws(ParseFailure) {
        guard let first = cursor.next() else { return }
        guard let keyword = first.word else {
            throw ParseFailure(.expectedStatement(found: first.text, at: first.location))
        }
        switch keyword {
        case "title":
            let text = try cursor.string(after: "title")
            tree.titles.append(TitleSyntax(text: text, location: first.location))
            try finish(cursor, statement: "title")
        case "note":
            tree.notes.append(try cursor.string(after: "note"))
            try finish(cursor, statement: "note")
        case "queue":
            try parseQueue(&cursor)
        case "op":
            try parseOperation(&cursor, keyword: first, isBarrier: false)
        case "barrier":
            try parseOperation(&cursor, keyword: first, isBarrier: true)
        case "at":
            try parseAction(&cursor, at: first)
        case "expect":
            try parseExpectation(&cursor, expect: first)
        case "quiz":
            try parseQuiz(&cursor, quiz: first)
        case "speed":
            try parseSpeed(&cursor, speed: first)
        case "when":
            try parseWhenCaption(&cursor, when: first)
        case "code":
            let path = try cursor.string(after: "code")
            try finish(cursor, statement: "code")
            tree.codeFiles.append(Located(value: path, location: first.location))
        case "add":
            let names = try cursor.names(after: "add")
            try finish(cursor, statement: "add")
            tree.startAdds.append(StartAddSyntax(names: names, location: first.location))
        default:
            throw ParseFailure(
                .unknownStatement(
                    keyword, suggestion: Suggestion.nearest(to: keyword, in: Keywords.statements),
                    at: first.location))
        }
    }

    /// Fails when tokens are left over after a complete statement.
    func finish(_ cursor: StatementCursor, statement: String) throws(ParseFailure) {
        if let extra = cursor.peek() {
            throw ParseFailure(.unexpectedToken(extra.text, in: statement, at: extra.location))
        }
    }

    // MARK: queue

    private mutating func parseQueue(_ cursor: inout StatementCursor) throws(ParseFailure) {
        let name = try cursor.name(after: "queue")
        var queue = QueueSyntax(name: name)
        defer { tree.queues.append(queue) }
        var seen: [String: SourceLocation] = [:]
        var capWord: Token?
        var qosWord: Token?
        while let token = cursor.next() {
            guard let word = token.word else {
                throw ParseFailure(.unexpectedToken(token.text, in: "queue", at: token.location))
            }
            guard Keywords.queueOptions.contains(word) else {
                throw ParseFailure(
                    .unknownQueueOption(
                        word, suggestion: Suggestion.nearest(to: word, in: Keywords.queueOptions),
                        at: token.location))
            }
            let firstTime = seen[word]
            if let firstTime {
                report(.duplicateClause(word, first: firstTime, at: token.location))
            } else {
                seen[word] = token.location
            }
            switch word {
            case "max", "serial", "default":
                var cap = ConcurrencyCap.systemDefault
                if word == "max" {
                    cap = .limit(try capValue(&cursor, after: "max"))
                } else if word == "serial" {
                    cap = .limit(1)
                }
                if let capWord, firstTime == nil {
                    report(.conflictingCap(word, with: capWord.text, at: token.location))
                } else if queue.cap == nil {
                    queue.cap = Located(value: cap, location: token.location)
                    capWord = token
                }
            case "qos":
                let level = try cursor.level(
                    QoSLevel.self, after: "qos", words: Keywords.qualities, unknown: Diagnostic.unknownQoS)
                if firstTime == nil {
                    queue.qos = Located(value: level, location: token.location)
                    qosWord = token
                }
            case "suspended":
                if firstTime == nil { queue.suspended = token.location }
            default:  // "main"
                if firstTime == nil { queue.main = token.location }
            }
        }
        // OperationQueue.main ignores these properties: refuse them rather
        // than let the user believe they apply.
        if queue.main != nil {
            if let capWord, queue.cap?.value != .systemDefault {
                report(.optionIgnoredByMainQueue(capWord.text, at: capWord.location))
            }
            if let qosWord { report(.optionIgnoredByMainQueue("qos", at: qosWord.location)) }
            if let suspended = queue.suspended {
                report(.optionIgnoredByMainQueue("suspended", at: suspended))
            }
        }
    }

    /// The N of `max N`: a whole number ≥ 1 (0 would stall the queue
    /// silently; below −1 Foundation stops the program).
    mutating func capValue(_ cursor: inout StatementCursor, after: String) throws(ParseFailure) -> Int {
        let n = try cursor.wholeNumber(after: after)
        if n.value == 0 { throw ParseFailure(.zeroCap(at: n.location)) }
        if n.value < 0 { throw ParseFailure(.capBelowOne(String(n.value), at: n.location)) }
        return n.value
    }

    // MARK: at

    private mutating func parseAction(_ cursor: inout StatementCursor, at: Token) throws(ParseFailure) {
        let time = try cursor.duration(after: "at")
        guard let keyword = cursor.peek(), let word = keyword.word else {
            throw cursor.expected("an action", after: cursor.tokens[1].text)
        }
        _ = cursor.next()
        if word == "say" {
            try parseCaptionText(&cursor, trigger: .at(time.value), location: at.location)
            return
        }
        let kind: ActionSyntax.Kind
        switch word {
        case "cancel": kind = .cancel(try cursor.name(after: word))
        case "cancel-all": kind = .cancelAll(try cursor.name(after: word))
        case "suspend": kind = .suspend(try cursor.name(after: word))
        case "resume": kind = .resume(try cursor.name(after: word))
        case "add":
            let names = try cursor.names(after: word)
            kind = names.count == 1 ? .add(names[0]) : .addBatch(names)
        case "wait": kind = .wait(try cursor.name(after: word))
        case "wait-all": kind = .waitAll(try cursor.name(after: word))
        case "start": kind = .start(try cursor.name(after: word))
        case "max":
            let queue = try cursor.name(after: word)
            if let token = cursor.peek(), token.isWord("default") {
                _ = cursor.next()
                kind = .setCap(queue, Located(value: .systemDefault, location: token.location))
            } else {
                let location = cursor.peek()?.location ?? cursor.end
                let n = try capValue(&cursor, after: queue.text)
                kind = .setCap(queue, Located(value: .limit(n), location: location))
            }
        case "priority":
            let op = try cursor.name(after: word)
            let level = try cursor.level(
                PriorityLevel.self, after: op.text, words: Keywords.priorities,
                unknown: Diagnostic.unknownPriority)
            kind = .setPriority(op, level)
        default:
            throw ParseFailure(
                .unknownAction(
                    word, suggestion: Suggestion.nearest(to: word, in: Keywords.afterTime), at: keyword.location))
        }
        try finish(cursor, statement: "at")
        tree.actions.append(ActionSyntax(time: time.value, kind: kind, keyword: keyword, location: at.location))
    }

    // MARK: expect

    private mutating func parseExpectation(_ cursor: inout StatementCursor, expect: Token) throws(ParseFailure) {
        let text = Self.normalizedText(cursor.tokens.dropFirst())
        guard let first = cursor.peek(), let word = first.word else {
            throw cursor.expected("a claim", after: "expect")
        }
        let claim: ExpectationSyntax.Claim
        if let second = cursor.peek(1), second.isWord("before") {
            let a = try cursor.name(after: "expect")
            _ = cursor.next()
            claim = .before(a, try cursor.name(after: "before"))
        } else if let second = cursor.peek(1), second.isWord("depends") {
            let a = try cursor.name(after: "expect")
            _ = cursor.next()
            try cursor.word("on", after: "depends")
            claim = .dependsOn(a, try cursor.name(after: "on"))
        } else if let second = cursor.peek(1), second.isWord("on") || second.isWord("off"),
            let third = cursor.peek(2), third.isWord("main")
        {
            let a = try cursor.name(after: "expect")
            _ = cursor.next()
            _ = cursor.next()
            claim = .onMain(a, second.isWord("on"))
        } else if word == "main", let second = cursor.peek(1), second.isWord("never"), let third = cursor.peek(2),
            third.isWord("blocked")
        {
            _ = cursor.next()
            _ = cursor.next()
            _ = cursor.next()
            try cursor.word("over", after: "blocked")
            claim = .mainNeverBlockedOver(try cursor.duration(after: "over").value)
        } else if let second = cursor.peek(1), second.isWord("finished"), let third = cursor.peek(2),
            third.isWord("by")
        {
            let a = try cursor.name(after: "expect")
            _ = cursor.next()
            _ = cursor.next()
            claim = .finishedBy(a, try cursor.duration(after: "by").value)
        } else if word == "never", let second = cursor.peek(1), second.isWord("together") {
            _ = cursor.next()
            _ = cursor.next()
            let names = try cursor.names(after: "together")
            if names.count < 2 { report(.claimNeedsTwo("never together", at: first.location)) }
            claim = .neverTogether(names)
        } else if word == "completion", let second = cursor.peek(1), second.isWord("of") {
            _ = cursor.next()
            _ = cursor.next()
            let a = try cursor.name(after: "of")
            try cursor.word("before", after: a.text)
            let b = try cursor.name(after: "before")
            try cursor.word("starts", after: b.text)
            claim = .completionBefore(a, b)
        } else {
            _ = cursor.next()
            switch word {
            case "order", "concurrent":
                let names = try cursor.names(after: word)
                if names.count < 2 { report(.claimNeedsTwo(word, at: first.location)) }
                claim = word == "order" ? .order(names) : .concurrent(names)
            case "peak":
                let queue = try cursor.name(after: word)
                var bound: String?
                if let token = cursor.peek(), case .bound = token.kind {
                    bound = token.text
                    _ = cursor.next()
                }
                let n = try cursor.wholeNumber(after: bound ?? queue.text)
                if n.value < 0 {
                    throw ParseFailure(
                        .expected("a count of 0 or more", after: queue.text, found: String(n.value), at: n.location))
                }
                claim =
                    switch bound {
                    case "<=": .peakAtMost(queue, n.value)
                    case ">=": .peakAtLeast(queue, n.value)
                    default: .peak(queue, n.value)
                    }
            case "finished": claim = .finished(try cursor.name(after: word))
            case "cancelled": claim = .cancelled(try cursor.name(after: word))
            case "skipped": claim = .skipped(try cursor.name(after: word))
            case "stuck": claim = .stuck(try cursor.name(after: word))
            default:
                // `expect fetch befor parse`: the claim word is the second one.
                if cursor.tokens.count == 4, let second = cursor.peek(), let secondWord = second.word,
                    Suggestion.nearest(to: secondWord, in: ["before"]) != nil
                {
                    throw ParseFailure(.unknownClaim(secondWord, suggestion: "before", at: second.location))
                }
                throw ParseFailure(
                    .unknownClaim(
                        word, suggestion: Suggestion.nearest(to: word, in: Keywords.claims), at: first.location))
            }
        }
        try finish(cursor, statement: "expect")
        tree.expectations.append(ExpectationSyntax(claim: claim, text: text, location: expect.location))
    }

    /// Tokens joined by one space, commas attached to the word before:
    /// `order a ,b` reads `order a, b`.
    static func normalizedText(_ tokens: ArraySlice<Token>) -> String {
        var text = ""
        for token in tokens {
            if case .comma = token.kind {
                text += ","
            } else {
                if !text.isEmpty { text += " " }
                text += token.text
            }
        }
        return text
    }
}
