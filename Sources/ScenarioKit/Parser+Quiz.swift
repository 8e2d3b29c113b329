import TextKit

extension Parser {
    /// `quiz "QUESTION" answer start-order` or `… answer final-state`.
    ///
    /// The kind is required: it says what the learner is asked for (the
    /// order in which operations start, or how each one ends), and the
    /// quiz command cannot guess it from the question. "At most one quiz"
    /// is checked by the validator, like "at most one title".
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
            throw cursor.expected("start-order or final-state", after: "answer")
        }
        guard let kind = QuizKind(rawValue: word) else {
            throw ParseFailure(
                .unknownQuizKind(
                    word, suggestion: Suggestion.nearest(to: word, in: Keywords.quizKinds), at: kindToken.location))
        }
        _ = cursor.next()
        try finish(cursor, statement: "quiz")
        tree.quizzes.append(QuizSyntax(question: question, kind: kind, location: quiz.location))
    }
}
