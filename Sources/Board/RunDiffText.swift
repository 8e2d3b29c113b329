import RunEvents
import ScenarioKit
import TextKit

/// What a compared run is, as a diff report names it.
public struct RunLabel: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// A scenario file run for the diff, at this speed.
        case scenario(speed: Double)
        /// A recording; the path of the scenario file its header names.
        case recording(scenario: String)
        /// A run the caller describes (`the run before r`).
        case session(String)
    }

    /// The file as given (or, for a session's run, its scenario's).
    public var path: String
    public var source: Source

    public init(path: String, source: Source) {
        self.path = path
        self.source = source
    }
}

/// Two runs compared, as text (`opscope diff`, docs/SCENARIO-LANGUAGE.md,
/// "Comparing two runs"): the runs, the first step where they part with
/// the two events in the text trace's words, a table of what differs per
/// operation, and a one-line summary.
public enum RunDiffText {
    public static func render(_ diff: RunDiff, a: RunLabel, b: RunLabel) -> String {
        var lines = [describe(diff.a, "A", a), describe(diff.b, "B", b), ""]
        let files = files(diff.files)
        if !files.isEmpty { lines += files + [""] }
        lines += divergence(diff)
        lines.append("")
        if !diff.races.isEmpty { lines += [races(diff), ""] }
        lines += operations(diff)
        lines.append("")
        lines.append(summary(diff))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `A: run.jsonl, a recording of scenarios/02-cap.ops — 47
    /// notifications, 24 steps, completed at 1.204s`.
    static func describe(_ run: RunSteps, _ letter: String, _ label: RunLabel) -> String {
        let source =
            switch label.source {
            case .scenario(let speed): "run at speed \(ScenarioPrinter.speedText(speed))"
            case .recording(let scenario): "a recording of \(scenario)"
            case .session(let about): about
            }
        // The paths come from the command line and a recording's header:
        // either may hold anything, a newline that would forge a line too.
        return
            "\(letter): \(TerminalText.escaped(label.path)), \(TerminalText.escaped(source)) — \(Spelling.count(run.eventCount, "notification")), "
            + "\(Spelling.count(run.steps.count, "step")), \(ending(run))"
    }

    /// `completed at 1.204s`, `stalled at 0.301s`, `did not end (its last
    /// notification at 0.500s)`.
    static func ending(_ run: RunSteps) -> String {
        let at = Spelling.seconds(run.facts.endTime)
        switch run.facts.outcome {
        case .completed: return "completed at \(at)"
        case .stalled: return "stalled at \(at)"
        case nil: return run.eventCount == 0 ? "no notifications" : "did not end (its last notification at \(at))"
        }
    }

    // MARK: - The files

    /// The most changes of the files the report lists, one a line.
    static let filesListed = 20

    /// `files: 1 change: net cap 2 → 3`, each change on its own line when
    /// there are more; nothing when the files say the same.
    static func files(_ changes: ScenarioChanges) -> [String] {
        if changes.uncompared != nil { return ["files: " + changes.summary] }
        guard changes.statements > 0 else { return [] }
        guard changes.named.count > 1 else { return ["files: " + changes.summary] }
        var lines = ["files: \(Spelling.count(changes.named.count, "change")) (A's file, then B's):"]
        lines += changes.named.prefix(filesListed).map { "  " + $0 }
        if changes.named.count > filesListed { lines.append("  and \(changes.named.count - filesListed) more") }
        return lines
    }

    /// `the files differ by 1 change (net cap 2 → 3)`; nil when they say
    /// the same (or were too large to compare).
    static func filesWords(_ changes: ScenarioChanges) -> String? {
        guard changes.uncompared == nil, changes.statements > 0 else { return nil }
        guard !changes.named.isEmpty else {
            return "the files differ by " + Spelling.count(changes.statements, "statement")
        }
        return "the files differ by \(Spelling.count(changes.named.count, "change")) (\(changes.list))"
    }

    // MARK: - Races

    /// The most races a line names.
    static let racesNamed = 10

    /// `up01/stage at 0.001s, up02/up03 at 0.104s and 2 more`.
    static func raceList(_ races: [RunDiff.Race], most: Int) -> String {
        let shown = races.prefix(most).map { $0.operations.joined(separator: "/") + " at " + Spelling.seconds($0.time) }
        let more = races.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }

    static func races(_ diff: RunDiff) -> String {
        "races among independent operations (nothing in the files orders them: no dependency, barrier or serial "
            + "queue; their steps came within \(Spelling.duration(seconds: diff.tolerance.floor)) of each other, in "
            + "either order): " + raceList(diff.races, most: racesNamed)
    }

    /// `1 race among independent operations (up01/stage at 0.001s)`.
    static func raceWords(_ races: [RunDiff.Race]) -> String {
        (races.count == 1 ? "1 race" : "\(races.count) races") + " among independent operations ("
            + raceList(races, most: 3) + ")"
    }

    // MARK: - The first difference

    static func divergence(_ diff: RunDiff) -> [String] {
        guard let divergence = diff.divergence else {
            let steps = Spelling.count(diff.a.steps.count, "step")
            guard diff.races.isEmpty else {
                return ["steps: the same \(steps), in the same order but for races (below)" + stepsDefined]
            }
            return ["steps: the same \(steps) in the same order" + stepsDefined]
        }
        let n = divergence.index + 1
        let before =
            switch divergence.index {
            case 0: "their first"
            case 1: "the step before it is the same"
            default: "the \(divergence.index) steps before it are the same"
            }
        var lines = ["steps: the runs part at step \(n), \(before)" + stepsDefined + ":"]
        let formatA = EventFormatter(scenario: diff.a.scenario)
        let formatB = EventFormatter(scenario: diff.b.scenario)
        lines.append("     " + formatA.textHeader)
        lines.append(eventLine("A", divergence.a, formatA, diff.a, n))
        lines.append(eventLine("B", divergence.b, formatB, diff.b, n))
        if divergence.isSwap, let a = divergence.aLaterInB, let b = divergence.bLaterInA,
            let stepA = divergence.a, let stepB = divergence.b
        {
            lines.append(
                "  steps \(n) and \(n + 1) are the same two in the other order, "
                    + apart(stepA.event.time, b.step.event.time) + " in A and "
                    + apart(stepB.event.time, a.step.event.time) + " in B")
            return lines
        }
        if let step = divergence.a { lines.append(later("A", step, "B", divergence.aLaterInB)) }
        if let step = divergence.b { lines.append(later("B", step, "A", divergence.bLaterInA)) }
        return lines
    }

    /// `19ms apart`, `at the same millisecond`.
    private static func apart(_ t: Double, _ u: Double) -> String {
        let gap = abs(u - t)
        return (gap * 1000).rounded() == 0 ? "at the same millisecond" : Spelling.duration(seconds: gap) + " apart"
    }

    private static let stepsDefined =
        " (a step is a start, a cancel, a finish, a completion block, an action or the end)"

    private static func eventLine(
        _ letter: String, _ step: RunSteps.Step?, _ format: EventFormatter, _ run: RunSteps, _ n: Int
    ) -> String {
        guard let step else {
            return "  \(letter)  no step \(n): its run has \(Spelling.count(run.steps.count, "step")) and "
                + ending(run)
        }
        return "  \(letter)  " + format.text(step.event)
    }

    /// `  A's step (d3 started on a worker thread) comes in B at step 5, at 0.305s`.
    private static func later(_ letter: String, _ step: RunSteps.Step, _ other: String, _ placed: RunDiff.Placed?)
        -> String
    {
        let head = "  \(Spelling.possessive(letter)) step (\(step.what.phrase))"
        guard let placed else { return head + " never comes in \(other)" }
        return head + " comes in \(other) at step \(placed.index + 1), at \(Spelling.seconds(placed.step.event.time))"
    }

    // MARK: - Operations

    static func operations(_ diff: RunDiff) -> [String] {
        let tolerance = toleranceText(diff.tolerance)
        guard !diff.operations.isEmpty else {
            return [
                "operations: no difference (each in both files, ending the same way, on the same kind of thread, "
                    + "its start and finish within \(tolerance))"
            ]
        }
        var rows = [["operation", "what", "A", "B"]]
        for difference in diff.operations {
            let (what, a, b) = cells(difference.aspect)
            rows.append([difference.operation, what, a, b])
        }
        var widths = [0, 0, 0]
        for row in rows {
            for column in 0..<3 { widths[column] = max(widths[column], displayWidth(row[column])) }
        }
        let table = rows.map { row in
            var line = "  "
            for column in 0..<3 {
                line += row[column] + String(repeating: " ", count: widths[column] - displayWidth(row[column]) + 2)
            }
            return line + row[3]
        }
        return ["operations (a time differs when it is more than \(tolerance) away):"] + table
    }

    private static func cells(_ aspect: RunDiff.OperationDifference.Aspect) -> (String, String, String) {
        func time(_ t: Double?) -> String { t.map(Spelling.seconds) ?? "never" }
        func place(_ p: RunSteps.ThreadPlace?) -> String { p?.rawValue ?? "not said" }
        switch aspect {
        case .onlyIn(let side): return ("in the file", side == .a ? "yes" : "no", side == .b ? "yes" : "no")
        case .ending(let a, let b): return ("ending", a.rawValue, b.rawValue)
        case .start(let a, let b): return ("start", time(a), time(b))
        case .finish(let a, let b): return ("finish", time(a), time(b))
        case .thread(let a, let b): return ("thread", place(a), place(b))
        }
    }

    /// `max(10ms, 10 % of the later time)`.
    public static func toleranceText(_ tolerance: RunDiff.Tolerance) -> String {
        let percent = (tolerance.relative * 100).rounded()
        let percentText = percent == percent.rounded() && percent < 1e9 ? String(Int(percent)) : String(percent)
        return "max(\(Spelling.duration(seconds: tolerance.floor)), \(percentText) % of the later time)"
    }

    // MARK: - Summary

    /// One line: `the runs agree: …` or `the runs differ: …`.
    public static func summary(_ diff: RunDiff) -> String {
        let counts = Counts(diff)
        let files = filesWords(diff.files)
        if diff.agrees {
            let steps = Spelling.count(diff.a.steps.count, "step")
            var text = diff.races.isEmpty ? "the runs agree: " : "the runs agree on what matters: "
            if let files { text += files + "; " }
            text +=
                diff.races.isEmpty
                ? "the same \(steps) in the same order, and every operation ends the same way"
                : "the same \(steps), in the same order but for \(raceWords(diff.races)), and every operation ends "
                    + "the same way"
            guard counts.times > 0 else { return text }
            return text + "; only times differ: " + counts.timeWords
        }
        var parts: [String] = []
        if let files { parts.append(files) }
        if let divergence = diff.divergence {
            let n = divergence.index + 1
            let phrase = { (step: RunSteps.Step?) in step?.what.phrase ?? "no step" }
            let (a, b) = (phrase(divergence.a), phrase(divergence.b))
            parts.append(
                divergence.isSwap
                    ? "their steps \(n) and \(n + 1) come in the other order (A: \(a) first; B: \(b) first)"
                    : "their steps part at step \(n) (A: \(a); B: \(b))")
        }
        if counts.endings > 0 {
            parts.append(
                counts.endings == 1 ? "1 operation ends another way" : "\(counts.endings) operations end another way")
        }
        if counts.onlyInA > 0 { parts.append("\(Spelling.count(counts.onlyInA, "operation")) only in A's file") }
        if counts.onlyInB > 0 { parts.append("\(Spelling.count(counts.onlyInB, "operation")) only in B's file") }
        if counts.threads > 0 {
            parts.append("\(Spelling.count(counts.threads, "operation")) started on another kind of thread")
        }
        if counts.times > 0 { parts.append(counts.timeWords) }
        if !diff.races.isEmpty { parts.append(raceWords(diff.races)) }
        return "the runs differ: " + parts.joined(separator: "; ")
    }

    /// How many differences of each kind.
    struct Counts {
        var endings = 0
        var onlyInA = 0
        var onlyInB = 0
        var threads = 0
        /// Starts and finishes at other times, both runs having them.
        var starts = 0
        var finishes = 0

        init(_ diff: RunDiff) {
            for difference in diff.operations {
                switch difference.aspect {
                case .onlyIn(.a): onlyInA += 1
                case .onlyIn(.b): onlyInB += 1
                case .ending: endings += 1
                case .thread: threads += 1
                case .start(let a, let b): if a != nil, b != nil { starts += 1 }
                case .finish(let a, let b): if a != nil, b != nil { finishes += 1 }
                }
            }
        }

        var times: Int { starts + finishes }

        /// `2 starts and 1 finish at other times`.
        var timeWords: String {
            let parts = [(starts, "start"), (finishes, "finish")].filter { $0.0 > 0 }
                .map { $0.0 == 1 ? "1 \($0.1)" : "\($0.0) \($0.1 == "finish" ? "finishes" : "starts")" }
            return Spelling.list(parts) + " at other times"
        }
    }
}
