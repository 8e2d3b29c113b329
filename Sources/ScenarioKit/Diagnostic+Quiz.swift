import TextKit

/// What can be wrong with a `quiz` statement.
extension Diagnostic {
    /// The kinds of answer, as the notes list them.
    private static var quizKindList: String {
        QuizKind.allCases.map(\.rawValue).joined(separator: ", ")
    }

    public static func emptyQuizQuestion(at location: SourceLocation) -> Diagnostic {
        .error("the quiz has no question", at: location)
    }

    /// "expected 'answer' after the question"; `found` is the token there.
    public static func missingQuizAnswer(found: String?, at location: SourceLocation) -> Diagnostic {
        let note = ["write 'answer KIND', KIND being one of \(quizKindList)"]
        if let found {
            return .error("expected 'answer' after the question, found '\(found)'", at: location, notes: note)
        }
        return .error("expected 'answer' after the question", at: location, notes: note)
    }

    public static func unknownQuizKind(_ word: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            "unknown kind of answer '\(word)'", at: location,
            notes: suggestion.map { [Suggestion.didYouMean($0)] } ?? ["a quiz asks for one of \(quizKindList)"])
    }

    /// `answer together a` or `together a, b, c`: `count` names were given.
    public static func togetherNeedsTwo(_ count: Int, at location: SourceLocation) -> Diagnostic {
        .error(
            "'together' names two operations, not \(count)", at: location,
            notes: ["ask about one pair: answer together fetch, parse"])
    }

    /// `answer columns` without `at TIME` (`found`: what came instead).
    public static func columnsNeedsMoment(found: String?, at location: SourceLocation) -> Diagnostic {
        .error(
            "'columns' needs a moment: 'columns at TIME'" + (found.map { ", not '\($0)'" } ?? ""), at: location,
            notes: ["the question asks how many operations sit in each column at that moment: answer columns at 450ms"])
    }

    /// `together a, a`.
    public static func togetherSameOperation(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error("'together' names '\(name)' twice: ask about two different operations", at: location)
    }

    /// `together` naming a barrier: a barrier is not an operation the
    /// learner reasons about as executing alongside another.
    public static func quizOperandIsBarrier(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error("'\(name)' is a barrier: the quiz asks about operations", at: location)
    }

    /// `completions` when no operation (other than the one named after
    /// `before`) has a completion block: the question would ask about
    /// nothing.
    public static func completionsWithoutBlocks(before name: String?, at location: SourceLocation) -> Diagnostic {
        let other = name.map { " other than '\($0)'" } ?? ""
        return .error(
            "no operation\(other) has a completion block: 'completions' asks about completion blocks",
            at: location, notes: ["give an operation one: op fetch work 1s completion"])
    }
}
