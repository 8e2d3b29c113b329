import Foundation
import TextKit

/// One check of a kata: what it tries, and for each outcome the harness
/// can print, what it means. An outcome that is not `pass` is a failure
/// and carries the rule the class broke.
public struct KataCheck: Sendable {
    /// The harness's name for it: `runs`, `cancelBeforeStart`.
    public let id: String
    /// What it checks, as a line of the report: "runs and finishes, and
    /// Foundation is told".
    public let title: String
    /// Each outcome the harness may print for this check.
    public let outcomes: [String: Outcome]
    /// The rule a crash during this check breaks, for a check that tries
    /// what is known to end a program (a `DispatchQueue.main.sync` on the
    /// main thread): the check then fails with it, instead of being
    /// undecided. What the program died of is said as it was observed.
    public let crashRule: String?

    public init(id: String, title: String, outcomes: [String: Outcome], crashRule: String? = nil) {
        self.id = id
        self.title = title
        self.outcomes = outcomes
        self.crashRule = crashRule
    }

    /// What an outcome says: what happened (with `{at}`, a moment or a
    /// length in seconds, `{count}` and `{detail}` filled in from the harness's
    /// line), and for a failure, the rule.
    public struct Outcome: Sendable {
        public let says: String
        /// nil for the outcome that passes.
        public let rule: String?

        public static func pass(_ says: String) -> Outcome { Outcome(says: says, rule: nil) }
        public static func fail(_ says: String, rule: String) -> Outcome { Outcome(says: says, rule: rule) }
    }

    /// What `line` says, its moment and count filled in; nil when this
    /// check has no such outcome (a harness of another version).
    func outcome(of line: KataLine) -> (says: String, rule: String?)? {
        guard let outcome = outcomes[line.outcome] else { return nil }
        var says = outcome.says
        if let at = line.at { says = says.replacingOccurrences(of: "{at}", with: Spelling.seconds(at)) }
        if let count = line.count { says = says.replacingOccurrences(of: "{count}", with: String(count)) }
        if let detail = line.detail { says = says.replacingOccurrences(of: "{detail}", with: detail) }
        return (says, outcome.rule)
    }
}
