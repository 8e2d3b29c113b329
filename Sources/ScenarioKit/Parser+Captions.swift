import TextKit

extension Parser {
    /// `speed X`: a positive number without a unit, within
    /// `Scenario.speedRange` (the interactive view's own range). "At most
    /// one speed" is checked by the validator, like "at most one quiz".
    mutating func parseSpeed(_ cursor: inout StatementCursor, speed: Token) throws(ParseFailure) {
        guard let token = cursor.peek(), case .number(let literal) = token.kind else {
            throw ParseFailure(.speedNeedsNumber(at: cursor.peek()?.location ?? cursor.end))
        }
        _ = cursor.next()
        let number = literal.decimalText(of: token.text)
        if literal.hasUnit {
            throw ParseFailure(.speedHasUnit(token.text, number: number, at: token.location))
        }
        // The digits are ASCII and the form is -?D+(.D+)?, which `Double`
        // always reads (a huge number reads as a huge value, out of range).
        guard let value = Double(number), Scenario.speedRange.contains(value) else {
            throw ParseFailure(.speedOutOfRange(token.text, at: token.location))
        }
        var promised: Double?
        if let up = cursor.peek(), up.isWord("up") {
            _ = cursor.next()
            guard let to = cursor.peek(), to.isWord("to") else { throw cursor.expected("'to'", after: "up") }
            _ = cursor.next()
            guard let limit = cursor.peek(), case .number(let limitLiteral) = limit.kind else {
                throw ParseFailure(.promisedSpeedNeedsNumber(at: cursor.peek()?.location ?? cursor.end))
            }
            _ = cursor.next()
            if limitLiteral.hasUnit {
                throw ParseFailure(
                    .speedHasUnit(limit.text, number: limitLiteral.decimalText(of: limit.text), at: limit.location))
            }
            guard let fastest = Double(limitLiteral.decimalText(of: limit.text)),
                Scenario.promisedRange.contains(fastest),
                fastest >= value
            else {
                throw ParseFailure(
                    .promisedSpeedOutOfRange(limit.text, speed: ScenarioPrinter.speedText(value), at: limit.location))
            }
            promised = fastest
        }
        try finish(cursor, statement: "speed")
        tree.speeds.append(SpeedSyntax(value: value, promisedUpTo: promised, location: speed.location))
    }

    /// `when OP MOMENT say "TEXT"`. The operation's name is resolved by the
    /// validator, which also suggests the nearest operation.
    mutating func parseWhenCaption(_ cursor: inout StatementCursor, when: Token) throws(ParseFailure) {
        if let token = cursor.peek(), case .number = token.kind {
            throw ParseFailure(.whenNeedsOperation(found: token.text, at: token.location))
        }
        let op = try cursor.name(after: "when")
        let expectedMoment = "ready, starts, finishes or cancelled"
        // `when parse say …`: the moment is missing, not misspelt.
        guard let token = cursor.peek(), let word = token.word, word != "say" else {
            throw cursor.expected(expectedMoment, after: op.text)
        }
        guard let moment = CaptionMoment(rawValue: word) else {
            throw ParseFailure(
                .unknownCaptionMoment(
                    word, suggestion: Suggestion.nearest(to: word, in: Keywords.captionMoments), at: token.location))
        }
        _ = cursor.next()
        guard let say = cursor.peek(), say.isWord("say") else {
            throw cursor.expected("'say'", after: word)
        }
        _ = cursor.next()
        let trigger = CaptionSyntax.Trigger.when(op, Located(value: moment, location: token.location))
        try parseCaptionText(&cursor, trigger: trigger, location: when.location)
    }

    /// The `"TEXT"` after `say`, which ends the statement, and the caption.
    mutating func parseCaptionText(
        _ cursor: inout StatementCursor, trigger: CaptionSyntax.Trigger, location: SourceLocation
    ) throws(ParseFailure) {
        let textToken = cursor.peek()
        let text = try cursor.string(after: "say")
        if text.allSatisfy(\.isWhitespace), let textToken {
            report(.emptyCaption(at: textToken.location))
        }
        if let extra = cursor.peek() {
            throw ParseFailure(.textAfterCaption(extra.text, at: extra.location))
        }
        tree.captions.append(CaptionSyntax(trigger: trigger, text: text, location: location))
    }
}
