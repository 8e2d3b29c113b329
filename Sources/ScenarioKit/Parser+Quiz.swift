import TextKit

extension Parser {
    /// `quiz "QUESTION" answer KIND`, where KIND is one of `QuizKind`'s
    /// words; two take operations: `together A, B` and `completions [before
    /// OP]`; one takes a moment: `columns at TIME`.
    ///
    /// The kind is required: it says what the learner is asked for, and
    /// the quiz command cannot guess it from the question. "At most one
    /// quiz" and the operands' names are checked by the validator, like
    /// "at most one title".
    mutating func parseQuiz(_ cursor: inout StatementCursor, quiz: Token) throws(ParseFailure) {
        let questionToken = cursor.peek()
        let question = try cursor.string(after: "quiz")
        if question.allSatisfy(\.isWhitespace), let questionToken {
            report(.emptyQuizQuestion(at: questionToken.location))
        }
        guard let answer = cursor.next(), answer.isWord("answer") else {
            let found = cursor.tokens.count > 2 ? cursor.tokens[2] : nil
            throw ParseFailure(.missingQuizAnswer(found: found?.text, at: found?.location ?? cursor.end))
        }
        guard let kindToken = cursor.peek(), let word = kindToken.word else {
            let kinds = Keywords.quizKinds
            throw cursor.expected(kinds.dropLast().joined(separator: ", ") + " or " + kinds.last!, after: "answer")
        }
        guard let kind = QuizKind(rawValue: word) else {
            throw ParseFailure(
                .unknownQuizKind(
                    word, suggestion: Suggestion.nearest(to: word, in: Keywords.quizKinds), at: kindToken.location))
        }
        _ = cursor.next()
        var operands: [Name] = []
        var moment: Duration?
        switch kind {
        case .together:
            operands = try cursor.names(after: word)
            if operands.count != 2 { report(.togetherNeedsTwo(operands.count, at: kindToken.location)) }
        case .completions:
            if let before = cursor.peek(), before.isWord("before") {
                _ = cursor.next()
                operands = [try cursor.name(after: "before")]
            }
        case .columns:
            guard let at = cursor.peek(), at.isWord("at") else {
                throw ParseFailure(
                    .columnsNeedsMoment(found: cursor.peek()?.text, at: cursor.peek()?.location ?? cursor.end))
            }
            _ = cursor.next()
            moment = try cursor.duration(after: "at").value
        default:
            break
        }
        try finish(cursor, statement: "quiz")
        tree.quizzes.append(
            QuizSyntax(question: question, kind: kind, operands: operands, moment: moment, location: quiz.location))
    }
}
