import FoundationRules
import TextKit

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

    /// The bit of `completion` in the mask of clauses seen.
    private static let completionClauseBit: UInt32 = 1 << Keywords.operationClauses.firstIndex(of: "completion")!

    private mutating func parseClauses(
        _ cursor: inout StatementCursor, into op: inout OperationSyntax, statement: String
    ) throws(ParseFailure) {
        let allowed = op.isBarrier ? Keywords.barrierClauses : Keywords.operationClauses
        // The clauses seen so far, by their index in `operationClauses`,
        // and where each was first written: a mask and a fixed row, so that
        // the clauses of an operation cost no allocation.
        var seen: UInt32 = 0
        var firstAt = InlineArray<16, SourceLocation>(repeating: SourceLocation(line: 0, column: 0))
        var bodyClause: String?
        var ignoresCancelAt: SourceLocation?
        while let token = cursor.next() {
            guard let word = token.word else {
                throw ParseFailure(.unexpectedToken(token.text, in: statement, at: token.location))
            }
            guard allowed.contains(word), let clause = Keywords.operationClauses.firstIndex(of: word) else {
                if !op.isBarrier && Keywords.completionActions.contains(word) {
                    // `completion cancel a cancel b`, or an action written
                    // without its `completion`.
                    if seen & Self.completionClauseBit != 0 {
                        throw ParseFailure(.completionTakesOneAction(at: token.location))
                    }
                    throw ParseFailure(.actionOutsideCompletion(word, at: token.location))
                }
                if op.isBarrier && Keywords.operationClauses.contains(word) {
                    throw ParseFailure(.clauseNotAllowedOnBarrier(word, at: token.location))
                }
                throw ParseFailure(
                    .unknownClause(word, suggestion: Suggestion.nearest(to: word, in: allowed), at: token.location))
            }
            // A repeated or second body clause is reported, its argument is
            // still read (to stay in step), and the first one wins.
            var keep = true
            if seen & (1 << clause) != 0 {
                report(.duplicateClause(word, first: firstAt[clause], at: token.location))
                keep = false
            } else {
                seen |= 1 << clause
                firstAt[clause] = token.location
                if Keywords.bodyClauses.contains(word) && !op.isBarrier {
                    if let bodyClause {
                        report(.conflictingBody(word, with: bodyClause, at: token.location))
                        keep = false
                    } else {
                        bodyClause = word
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
            case "class":
                let type = try cursor.name(after: word)
                // A name that cannot be the class's is reported, and the
                // body is still taken (no second error for a missing one).
                if !SwiftIdentifiers.isTypeName(type.text) { report(.notASwiftTypeName(type.text, at: type.location)) }
                if keep {
                    op.body = .custom(type.text)
                    op.classAt = type.location
                }
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
                let (action, keyword) = try completionAction(&cursor)
                if keep { op.completion = CompletionSyntax(location: token.location, action: action, keyword: keyword) }
            case "ignores-cancel":
                op.ignoresCancel = true
                ignoresCancelAt = token.location
            case "leaves":
                let d = try cursor.duration(after: word)
                if keep { op.leaves = Located(value: d.value, location: token.location) }
            default:  // "never-finishes" [if-cancelled]
                if keep { op.neverFinishes = token.location }
                if let next = cursor.peek(), next.isWord("if-cancelled") {
                    _ = cursor.next()
                    if keep { op.neverFinishesOnlyIfCancelled = true }
                }
            }
        }
        if op.body?.customClass != nil {
            // What the class does when cancelled, whether it finishes and
            // what its main() leaves running are its own code's.
            if let at = ignoresCancelAt { report(.clauseNotForClass("ignores-cancel", at: at)) }
            if let at = op.neverFinishes { report(.clauseNotForClass("never-finishes", at: at)) }
            if let leaves = op.leaves { report(.clauseNotForClass("leaves", at: leaves.location)) }
            op.ignoresCancel = false
            op.neverFinishes = nil
            op.neverFinishesOnlyIfCancelled = false
            op.leaves = nil
        }
        if op.body == nil {
            report(.missingBody(op.name.text, at: op.name.location))
        } else if let neverFinishes = op.neverFinishes, op.body?.isAsync == false {
            report(.neverFinishesNeedsAsync(at: neverFinishes))
        }
        if let leaves = op.leaves, let body = op.body {
            if case .work = body {
            } else {
                report(.leavesNeedsWork(at: leaves.location))
            }
        }
    }

    /// The action after `completion`, if one follows: `cancel OP`,
    /// `cancel-all QUEUE`, `suspend QUEUE` or `resume QUEUE` (a decision:
    /// exactly one; the other actions make no sense or no safe sense in a
    /// completion block). None of these words is an operation clause, so a
    /// clause after a plain `completion` is never mistaken for an action.
    /// A word that is neither reads as a misspelt action, unless it is
    /// close to a clause and to no action: the clause loop then reports it.
    private mutating func completionAction(
        _ cursor: inout StatementCursor
    ) throws(ParseFailure) -> (ActionSyntax.Kind?, Token?) {
        guard let token = cursor.peek(), let word = token.word, !Keywords.operationClauses.contains(word) else {
            return (nil, nil)
        }
        let kind: ActionSyntax.Kind
        switch word {
        case "cancel", "cancel-all", "suspend", "resume":
            _ = cursor.next()
            let name = try cursor.name(after: word)
            switch word {
            case "cancel": kind = .cancel(name)
            case "cancel-all": kind = .cancelAll(name)
            case "suspend": kind = .suspend(name)
            default: kind = .resume(name)
            }
        case "max", "add", "wait", "wait-all", "start":
            throw ParseFailure(.actionNotAllowedInCompletion(word, at: token.location))
        default:
            let suggestion = Suggestion.nearest(to: word, in: Keywords.completionActions)
            if suggestion == nil && Suggestion.nearest(to: word, in: Keywords.operationClauses) != nil {
                return (nil, nil)
            }
            throw ParseFailure(.unknownCompletionAction(word, suggestion: suggestion, at: token.location))
        }
        if let comma = cursor.peek(), case .comma = comma.kind {
            throw ParseFailure(.completionTakesOneAction(at: comma.location))
        }
        return (kind, token)
    }

    /// `blocks D, D, …` or `blocks N x D` (1 ≤ N ≤ `Keywords.maximumBlockCount`).
    private mutating func blockDurations(_ cursor: inout StatementCursor) throws(ParseFailure) -> [Duration] {
        if let first = cursor.peek(), case .number(let literal) = first.kind,
            !literal.hasFraction, !literal.hasUnit, let second = cursor.peek(1)
        {
            let isCountForm: Bool
            switch second.kind {
            case .word where second.text == "x": isCountForm = true
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
