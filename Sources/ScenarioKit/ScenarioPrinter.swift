import TextKit

/// Prints a `Scenario` as canonical source text.
///
/// Canonical means: one statement per line, sections in a fixed order
/// (title, notes and speed; `code` files; queues; operations and barriers in insertion
/// order; the start's batch adds (`add A, B`) in file order; `when` captions in file order; actions and `at` captions in time
/// order; expectations), every `on` written out, clauses in a fixed order,
/// durations in their shortest form (`300ms`, `1.5s`); only the implicit
/// `default` queue of a file without queues stays implicit. Reading the
/// text back gives an equal scenario apart from source locations (see
/// `Scenario.withoutLocations`).
///
/// An `at` caption goes among the `at` actions by time, after the actions
/// of its time (the order a run takes them in). The quiz, when there is
/// one, is the last section.
///
/// Limits: names must be valid scenario names; a speed reads back only
/// within `Scenario.speedRange` and a caption only with a non-blank text;
/// the language writes at most one completion action (`cancel`,
/// `cancel-all`, `suspend` or `resume`), so only the first of a completion
/// block's actions is printed, and only when it is one of those.
public struct ScenarioPrinter: Sendable {
    public init() {}

    public func source(for scenario: Scenario) -> String {
        var sections: [[String]] = []
        var header: [String] = []
        if let title = scenario.title { header.append("title " + Self.quoted(title)) }
        header += scenario.notes.map { "note " + Self.quoted($0) }
        if let speed = scenario.speed {
            header.append(
                "speed " + Self.speedText(speed) + (scenario.promisedUpTo.map { " up to " + Self.speedText($0) } ?? ""))
        }
        sections.append(header)
        sections.append(scenario.code.map { "code " + Self.quoted($0.path) })
        // The implicit queue of a file that declares none is not written
        // out, and neither is `on` then: an operation may be named
        // `default`, and a declared queue of that name would clash with it.
        let implicitQueue = scenario.queues == [QueueSpec(name: "default")]
        if !implicitQueue { sections.append(scenario.queues.map(queueLine)) }
        // An operation started by hand is in no queue: its `on` is written
        // only when the file put it elsewhere than the first queue (what no
        // `on` reads as), so that a print of a file without one has none.
        let byHand = scenario.startedByHand
        sections.append(
            scenario.operations.indices.map { index in
                let unplaced = byHand.contains(OperationID(index)) && scenario.operations[index].queue.index == 0
                return operationLine(index, in: scenario, writeQueue: !implicitQueue && !unplaced)
            })
        sections.append(
            scenario.startBatches.map { batch in
                "add " + batch.operations.map { scenario[operation: $0].name }.joined(separator: ", ")
            })
        sections.append(scenario.captions.compactMap { whenCaptionLine($0, in: scenario) })
        sections.append(timedLines(scenario))
        sections.append(scenario.expectations.map { "expect " + Self.claimText($0.claim, in: scenario) })
        if let quiz = scenario.quiz {
            sections.append(["quiz \(Self.quoted(quiz.question)) answer \(Self.quizKindText(quiz, in: scenario))"])
        }
        return sections.filter { !$0.isEmpty }.map { $0.joined(separator: "\n") + "\n" }.joined(separator: "\n")
    }

    /// `start-order`, `together fetch, parse`, `completions before save`,
    /// `columns at 450ms`.
    public static func quizKindText(_ quiz: Quiz, in scenario: Scenario) -> String {
        let names = quiz.operands.map { scenario[operation: $0].name }
        switch quiz.kind {
        case .together: return "together " + names.joined(separator: ", ")
        case .completions where !names.isEmpty: return "completions before " + names[0]
        case .columns: return "columns at " + Self.format(quiz.moment ?? .zero)
        default: return quiz.kind.rawValue
        }
    }

    private func queueLine(_ queue: QueueSpec) -> String {
        var parts = ["queue", queue.name]
        if queue.isMain { parts.append("main") }
        switch queue.cap {
        case .systemDefault: break
        case .limit(1): parts.append("serial")
        case .limit(let n): parts += ["max", String(n)]
        }
        if let qos = queue.qos { parts += ["qos", qos.rawValue] }
        if queue.startsSuspended { parts.append("suspended") }
        return parts.joined(separator: " ")
    }

    private func operationLine(_ index: Int, in scenario: Scenario, writeQueue: Bool) -> String {
        let op = scenario.operations[index]
        let on = writeQueue ? ["on", scenario[queue: op.queue].name] : []
        if case .barrier(let d) = op.body {
            return (["barrier", op.name] + on).joined(separator: " ") + (d == .zero ? "" : " work " + Self.format(d))
        }
        var parts = ["op", op.name] + on
        switch op.body {
        case .work(let d): parts += ["work", Self.format(d)]
        case .async(let d): parts += ["async", Self.format(d)]
        case .blocks(let ds):
            if ds.count > 1, let first = ds.first, ds.allSatisfy({ $0 == first }) {
                parts += ["blocks", String(ds.count), "x", Self.format(first)]
            } else {
                parts += ["blocks", ds.map(Self.format).joined(separator: ", ")]
            }
        case .custom(let type): parts += ["class", type]
        case .barrier: break
        }
        if !op.dependencies.isEmpty {
            parts += ["after", op.dependencies.map { scenario[operation: $0].name }.joined(separator: ", ")]
        }
        if let priority = op.priority { parts += ["priority", priority.rawValue] }
        if let qos = op.qos { parts += ["qos", qos.rawValue] }
        if let completion = op.completion {
            parts.append("completion")
            if let action = completion.first, let text = Self.completionActionText(action, in: scenario) {
                parts.append(text)
            }
        }
        if op.ignoresCancel { parts.append("ignores-cancel") }
        if op.neverFinishes { parts.append("never-finishes") }
        if scenario.forgetsIfCancelled.contains(OperationID(index)) { parts += ["never-finishes", "if-cancelled"] }
        if let leftover = scenario.leftover(of: OperationID(index)) { parts += ["leaves", Self.format(leftover)] }
        return parts.joined(separator: " ")
    }

    private func actionLine(_ timed: TimedAction, in scenario: Scenario) -> String {
        "at \(Self.format(timed.time)) \(Self.actionText(timed.action, in: scenario))"
    }

    /// The `at` lines: the actions (already in time order) merged with the
    /// `at` captions (sorted by time, stably) by time; a tie goes to the
    /// action. A merge never reorders either list.
    private func timedLines(_ scenario: Scenario) -> [String] {
        let actions = scenario.actions
        let captions = scenario.timedCaptions.compactMap { caption in
            caption.time.map { (time: $0, caption: caption) }
        }
        var lines: [String] = []
        lines.reserveCapacity(actions.count + captions.count)
        var a = 0
        var c = 0
        while a < actions.count || c < captions.count {
            let takeAction: Bool
            if c == captions.count {
                takeAction = true
            } else if a == actions.count {
                takeAction = false
            } else {
                let action = actions[a]
                let caption = captions[c]
                takeAction = action.time <= caption.time
            }
            if takeAction {
                lines.append(actionLine(actions[a], in: scenario))
                a += 1
            } else {
                lines.append("at \(Self.format(captions[c].time)) say \(Self.quoted(captions[c].caption.text))")
                c += 1
            }
        }
        return lines
    }

    /// `when OP MOMENT say "TEXT"`, or nil for an `at` caption.
    private func whenCaptionLine(_ caption: Caption, in scenario: Scenario) -> String? {
        guard case .when(let op, let moment) = caption.trigger else { return nil }
        return "when \(scenario[operation: op].name) \(moment.rawValue) say \(Self.quoted(caption.text))"
    }

    /// An action as the language writes it after `at TIME`: `cancel fetch`,
    /// `max net default`.
    public static func actionText(_ action: Action, in scenario: Scenario) -> String {
        func op(_ id: OperationID) -> String { scenario[operation: id].name }
        func queue(_ id: QueueID) -> String { scenario[queue: id].name }
        switch action {
        case .cancel(let id): return "cancel " + op(id)
        case .cancelAll(let id): return "cancel-all " + queue(id)
        case .suspend(let id): return "suspend " + queue(id)
        case .resume(let id): return "resume " + queue(id)
        case .setCap(let id, .systemDefault): return "max \(queue(id)) default"
        case .setCap(let id, .limit(let n)): return "max \(queue(id)) \(n)"
        case .setPriority(let id, let level): return "priority \(op(id)) \(level.rawValue)"
        case .add(let id): return "add " + op(id)
        case .addBatch(let ids): return "add " + ids.map(op).joined(separator: ", ")
        case .wait(let id): return "wait " + op(id)
        case .waitAll(let id): return "wait-all " + queue(id)
        case .start(let id): return "start " + op(id)
        }
    }

    /// The action as written after `completion`, or nil for an action a
    /// completion block cannot perform in the language.
    static func completionActionText(_ action: Action, in scenario: Scenario) -> String? {
        switch action {
        case .cancel, .cancelAll, .suspend, .resume: actionText(action, in: scenario)
        case .setCap, .setPriority, .add, .addBatch, .wait, .waitAll, .start: nil
        }
    }

    /// A claim as the language writes it (also the canonical
    /// `Expectation.text`).
    public static func claimText(_ claim: Claim, in scenario: Scenario) -> String {
        func op(_ id: OperationID) -> String { scenario[operation: id].name }
        switch claim {
        case .before(let a, let b): return "\(op(a)) before \(op(b))"
        case .order(let ids): return "order " + ids.map(op).joined(separator: ", ")
        case .concurrent(let ids): return "concurrent " + ids.map(op).joined(separator: ", ")
        case .peak(let q, let n): return "peak \(scenario[queue: q].name) \(n)"
        case .peakAtMost(let q, let n): return "peak \(scenario[queue: q].name) <= \(n)"
        case .peakAtLeast(let q, let n): return "peak \(scenario[queue: q].name) >= \(n)"
        case .finished(let id): return "finished " + op(id)
        case .cancelled(let id): return "cancelled " + op(id)
        case .skipped(let id): return "skipped " + op(id)
        case .stuck(let id): return "stuck " + op(id)
        case .dependsOn(let a, let b): return "\(op(a)) depends on \(op(b))"
        case .neverTogether(let ids): return "never together " + ids.map(op).joined(separator: ", ")
        case .completionBefore(let a, let b): return "completion of \(op(a)) before \(op(b)) starts"
        case .onMain(let id, let on): return "\(op(id)) \(on ? "on" : "off") main"
        case .mainNeverBlockedOver(let limit): return "main never blocked over \(Spelling.duration(limit))"
        case .finishedBy(let id, let time): return "\(op(id)) finished by \(Spelling.duration(time))"
        }
    }

    /// The shortest spelling of a duration (`Spelling.duration`, the one
    /// the whole project uses).
    public static func format(_ duration: Duration) -> String { Spelling.duration(duration) }

    /// A speed as the language writes it: `1`, `0.5`, `2.5`, `0.125`: no
    /// `.0` on a whole number, else the shortest decimal that reads back as
    /// the same `Double` (every speed in `Scenario.speedRange` has one
    /// without an exponent).
    public static func speedText(_ speed: Double) -> String {
        if speed == speed.rounded(), abs(speed) < 1e15 { return String(Int(speed)) }
        return String(speed)
    }

    /// `"…"` with `"` and `\` escaped, the only escapes the language has.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }
}
