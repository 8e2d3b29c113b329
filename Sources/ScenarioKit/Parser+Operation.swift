extension Parser {
    /// `op NAME CLAUSES` and `barrier NAME [on QUEUE] [work DURATION]`.
    ///
    /// Clauses come in any order, each at most once; an operation has
    /// exactly one body clause. A barrier without `on` goes to the first
    /// declared queue, like an operation (a decision: the reference writes
    /// `on` in the barrier's form but does not say it is required). The declaration is recorded even when the
    /// statement fails, so that its name stays known.
    mutating func parseOperation(
        _ cursor: inout StatementCursor, keyword: Token, isBarrier: Bool
    ) throws(ParseFailure) {
        let statement = keyword.text
        let name = try cursor.name(after: statement)
        var op = OperationSyntax(name: name, isBarrier: isBarrier)
        if isBarrier { op.body = .barrier(.zero) }
        do throws(ParseFailure) {
            try parseClauses(&cursor, into: &op, statement: statement)
        } catch {
            appendOperation(op)
            throw error
        }
        appendOperation(op)
    }

    private mutating func parseClauses(
        _ cursor: inout StatementCursor, into op: inout OperationSyntax, statement: String
    ) throws(ParseFailure) {
        let allowed = op.isBarrier ? Keywords.barrierClauses : Keywords.operationClauses
        var seen: [String: SourceLocation] = [:]
        var bodyClause: Token?
        while let token = cursor.next() {
            guard let word = token.word else {
                throw ParseFailure(.unexpectedToken(token.text, in: statement, at: token.location))
            }
            guard allowed.contains(word) else {
                if op.isBarrier && Keywords.operationClauses.contains(word) {
                    throw ParseFailure(.clauseNotAllowedOnBarrier(word, at: token.location))
                }
                throw ParseFailure(
                    .unknownClause(word, suggestion: Suggestion.nearest(to: word, in: allowed), at: token.location))
            }
            // A repeated or second body clause is reported, its argument is
            // still read (to stay in step), and the first one wins.
            var keep = true
            if let first = seen[word] {
                report(.duplicateClause(word, first: first, at: token.location))
                keep = false
            } else {
                seen[word] = token.location
                if Keywords.bodyClauses.contains(word) && !op.isBarrier {
                    if let bodyClause {
                        report(.conflictingBody(word, with: bodyClause.text, at: token.location))
                        keep = false
                    } else {
                        bodyClause = token
                    }
                }
            }
            switch word {
            case "on":
                let queue = try cursor.name(after: word)
                if keep { op.queue = queue }
            case "work":
                let d = try cursor.duration(after: word).value
                if keep { op.body = op.isBarrier ? .barrier(d) : .work(d) }
            case "async":
                let d = try cursor.duration(after: word).value
                if keep { op.body = .async(d) }
            case "blocks":
                let durations = try blockDurations(&cursor)
                if keep { op.body = .blocks(durations) }
            case "after":
                let names = try cursor.names(after: word)
                if keep { op.dependencies = names }
            case "priority":
                let level = try cursor.level(
                    PriorityLevel.self, after: word, words: Keywords.priorities,
                    unknown: Diagnostic.unknownPriority)
                if keep { op.priority = Located(value: level, location: token.location) }
            case "qos":
                let level = try cursor.level(
                    QoSLevel.self, after: word, words: Keywords.qualities, unknown: Diagnostic.unknownQoS)
                if keep { op.qos = Located(value: level, location: token.location) }
            case "completion":
                op.completion = true
            case "ignores-cancel":
                op.ignoresCancel = true
            default:  // "never-finishes"
                if keep { op.neverFinishes = token.location }
            }
        }
        if op.body == nil {
            report(.missingBody(op.name.text, at: op.name.location))
        } else if let neverFinishes = op.neverFinishes, op.body?.isAsync == false {
            report(.neverFinishesNeedsAsync(at: neverFinishes))
        }
    }

    /// `blocks D, D, …` or `blocks N x D` (1 ≤ N ≤ `Keywords.maximumBlockCount`).
    private mutating func blockDurations(_ cursor: inout StatementCursor) throws(ParseFailure) -> [Duration] {
        if let first = cursor.peek(), case .number(let literal) = first.kind,
            literal.fractionDigits == nil, literal.unit == nil, let second = cursor.peek(1)
        {
            let isCountForm: Bool
            switch second.kind {
            case .word("x"): isCountForm = true
            case .number:
                // `blocks 3 300ms`: a count without its `x`.
                throw ParseFailure(.expected("'x'", after: first.text, found: second.text, at: second.location))
            default: isCountForm = false
            }
            if isCountForm {
                let count = try cursor.wholeNumber(after: "blocks")
                _ = cursor.next()
                if count.value < 1 { throw ParseFailure(.blockCountTooSmall(count.value, at: count.location)) }
                if count.value > Keywords.maximumBlockCount {
                    throw ParseFailure(
                        .blockCountTooLarge(count.value, limit: Keywords.maximumBlockCount, at: count.location))
                }
                let d = try cursor.duration(after: "x").value
                return Array(repeating: d, count: count.value)
            }
        }
        var durations = [try cursor.duration(after: "blocks").value]
        while cursor.skipComma() {
            durations.append(try cursor.duration(after: ",").value)
            if durations.count > Keywords.maximumBlockCount, let last = cursor.tokens.last {
                throw ParseFailure(
                    .blockCountTooLarge(durations.count, limit: Keywords.maximumBlockCount, at: last.location))
            }
        }
        return durations
    }

    private mutating func appendOperation(_ op: OperationSyntax) {
        tree.operations.append(op)
    }
}
