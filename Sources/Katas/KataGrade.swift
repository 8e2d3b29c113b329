import Foundation
import TextKit

/// One line the harness printed: `opscope-kata {"check":…,"outcome":…}`.
public struct KataLine: Sendable, Equatable, Decodable {
    public var check: String
    public var outcome: String
    /// Seconds: since the check began, or since the act it measures from
    /// (a cancel), as the check's outcome says.
    public var at: Double?
    public var count: Int?
    /// Words opscope itself put in (a race's two places), never the
    /// harness's.
    public var detail: String?

    /// What starts a harness's line; the rest of a program's output is the
    /// user's own.
    public static let prefix = "opscope-kata "

    /// The harness line `text` holds, or nil for any other line.
    public static func parse(_ text: String) -> KataLine? {
        guard text.hasPrefix(prefix) else { return nil }
        return try? JSONDecoder().decode(KataLine.self, from: Data(text.dropFirst(prefix.count).utf8))
    }
}

/// How the harness's program ended, as far as grading cares.
public enum KataEnding: Sendable, Equatable {
    /// It exited by itself (any status).
    case exited(Int32)
    /// A signal ended it: the user's code crashed (a Foundation fatal
    /// error, a trap). `message` is the last of what it printed on
    /// standard error (Foundation's reason).
    case crashed(signal: Int32, message: String)
    /// It ran past the kata's time limit and was stopped.
    case stopped(afterSeconds: Double)
    /// opscope was asked to stop (Ctrl-C) and ended it.
    case interrupted
    /// The program could not be built (only the race check's can fail so
    /// when the file compiled): why.
    case unbuilt(String)
    /// The program was built but could not be started: why, as
    /// `ChildProcess` said it ("cannot start …").
    case unstarted(String)
}

/// A check's grade.
public struct KataVerdict: Sendable, Equatable {
    public enum Grade: Sendable, Equatable {
        case passed
        case failed(rule: String)
        /// The program ended before this check was decided.
        case undecided
    }

    public var check: String
    public var title: String
    public var grade: Grade
    /// What happened: the outcome's words, or why it was not decided.
    public var says: String

    public var passed: Bool { grade == .passed }
}

/// Grades a run of a kata's harness: each check's line, in the kata's
/// order; a check the program never reached is undecided, with how it
/// ended. The race check has a program of its own, and its own ending.
public enum KataGrader {
    public static func grade(
        _ kata: Kata, lines: [KataLine], ending: KataEnding, raceEnding: KataEnding? = nil
    ) -> [KataVerdict] {
        var undecidedTold = false
        return kata.checks.map { check in
            if let line = lines.first(where: { $0.check == check.id }), let verdict = verdict(kata, line) {
                return verdict
            }
            let says: String
            if check.id == Kata.raceCheck {
                says = describe(raceEnding ?? ending)
            } else {
                // Only the first check not decided is the one the ending cut.
                let cut = !undecidedTold
                says = cut ? describe(ending) : "not reached"
                undecidedTold = true
                if cut, case .crashed = ending, let rule = check.crashRule {
                    return KataVerdict(check: check.id, title: check.title, grade: .failed(rule: rule), says: says)
                }
            }
            return KataVerdict(check: check.id, title: check.title, grade: .undecided, says: says)
        }
    }

    /// Why a program's checks were not decided, from how it ended.
    static func describe(_ ending: KataEnding) -> String {
        switch ending {
        case .exited(let status):
            "the program ended before this check was decided"
                + (status != 0 ? " (it exited with status \(status))" : "")
        case .crashed(let signal, let message):
            "the program was ended by " + signalName(signal) + (message.isEmpty ? "" : ": " + message)
        case .stopped(let seconds):
            "the program was stopped after \(Spelling.seconds(seconds)), the kata's time limit"
        case .interrupted:
            "you stopped the check"
        case .unbuilt(let why):
            "its program could not be built: " + why
        case .unstarted(let why):
            why
        }
    }

    /// The verdict `line` gives its check; nil for a line of no check of
    /// this kata, or an outcome the check does not have.
    public static func verdict(_ kata: Kata, _ line: KataLine) -> KataVerdict? {
        guard let check = kata.check(line.check), let outcome = check.outcome(of: line) else { return nil }
        return KataVerdict(
            check: check.id, title: check.title, grade: outcome.rule.map { .failed(rule: $0) } ?? .passed,
            says: outcome.says)
    }

    /// `signal 4 (SIGILL)`: a signal a crash or a stop ends with, named
    /// where it is one of those.
    public static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV",
            15: "SIGTERM",
        ]
        return "signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
    }
}
