import ScenarioKit
import TextKit

/// A stall's causes in words: the trace's report, the interface's `y`
/// overlay and a recording's `causes` all take them from here.
extension StallCause {
    /// How many names a cause's line lists before `and N more`.
    public static let namesShown = 3

    /// The cause as a clause: `photos is suspended and nothing resumes it`,
    /// `fetch never posted isFinished: it holds a slot of net and does
    /// nothing`. `waiting`: the run waits for the user, who may act (so a
    /// suspension says what the file does not do, not what nobody does).
    public func text(in scenario: Scenario, waiting: Bool = false) -> String {
        switch root {
        case .suspension(let q):
            let name = scenario.queueName(q)
            let resumes = suspension?.resumes ?? []
            if resumes.isEmpty {
                return waiting
                    ? "\(name) is suspended and nothing in the file resumes it"
                    : "\(name) is suspended and nothing resumes it"
            }
            if let coming = resumes.first(where: { $0.hold == nil }) {
                return "\(name) is suspended until \(Self.resumeText(coming, in: scenario))"
            }
            if kind == .deadlock { return "a deadlock: " + Self.deadlockClause(name) }
            return "\(name) is suspended, and what would resume it never runs"
        case .neverPostedFinish(let op):
            let queue = queue(in: scenario).map { scenario.queueName($0) } ?? "its queue"
            if case .custom(let type) = scenario[operation: op].body {
                // The user's class: its getter said finished (that is how
                // the run gave up on it), and Foundation was never told.
                return "\(scenario.opName(op)) (your class \(type)) says isFinished is true, but Foundation was never "
                    + "told: post willChangeValue/didChangeValue(forKey: \"isFinished\") around the change; it holds "
                    + "a slot of \(queue)"
            }
            return "\(scenario.opName(op)) never posted isFinished: it holds a slot of \(queue) and does nothing"
        case .slotsHeld(let q, let cap, let holders):
            return "\(scenario.queueName(q)) has no free slot: "
                + StuckReason.heldSlots(cap: cap, holders: holders, in: scenario)
        case .mainThreadBlocked:
            let call = wait.map { EventFormatter.waitCall($0, in: scenario) } ?? "a wait"
            return "the main thread is blocked in \(call), so the main queue runs nothing"
        case .notStartedByHand(let op):
            return "\(scenario.opName(op)) is in no queue, and nothing is left to call its start()"
        case .unknown:
            return "the run cannot tell why"
        }
    }

    /// The first `namesShown` names it holds, in scenario order.
    public func firstNames(in scenario: Scenario) -> [String] {
        operations.prefix(Self.namesShown).map { scenario.opName($0) }
    }

    /// `102 operations held: TEXT — a12-p2, a12-p3, a12-p4 and 99 more`.
    public func line(in scenario: Scenario, waiting: Bool = false, dash: String = "\u{2014}") -> String {
        let names = firstNames(in: scenario)
        let listed =
            count <= names.count
            ? Spelling.list(names) : names.joined(separator: ", ") + " and \(count - names.count) more"
        let held = Spelling.count(count, "operation") + " held"
        if kind == .deadlock, case .suspension(let q) = root {
            return "\(held) by a deadlock: \(Self.deadlockClause(scenario.queueName(q))) \(dash) \(listed)"
        }
        return "\(held): \(text(in: scenario, waiting: waiting)) \(dash) \(listed)"
    }

    private static func deadlockClause(_ queue: String) -> String {
        "\(queue) is suspended, and what would resume it waits behind it"
    }

    /// For a suspension, one sentence: who suspended the queue and when,
    /// what in the file could still resume it, and why each of those cannot
    /// (`photos suspended at 4.022s by a12-p1's completion block (line 40);
    /// its only resume is a12-sheet's completion block (line 52); a12-sheet
    /// waits for a12-p4, on photos`). nil for the other kinds.
    public func story(in scenario: Scenario) -> String? {
        guard case .suspension(let q) = root, let suspension else { return nil }
        let name = scenario.queueName(q)
        var parts: [String] = []
        switch suspension.by {
        case .action(let s):
            parts.append(
                "\(name) suspended at \(Spelling.seconds(s.time)) by \(Self.originText(s.origin, in: scenario))")
        case .declared:
            let line = scenario[queue: q].location.line
            parts.append("\(name) suspended from the start" + (line > 0 ? " (its queue line, line \(line))" : ""))
        case .unknown:
            parts.append("\(name) suspended")
        }
        let resumes = suspension.resumes
        let shown = resumes.prefix(Self.namesShown).map { Self.resumeText($0, in: scenario) }
        switch resumes.count {
        case 0: parts.append("nothing left in the file resumes it")
        case 1: parts.append("its only resume is \(shown[0])")
        case ...Self.namesShown: parts.append("its resumes are \(Spelling.list(shown))")
        default:
            parts.append("its resumes are \(shown.joined(separator: ", ")) and \(resumes.count - shown.count) more")
        }
        for resume in resumes.prefix(Self.namesShown) {
            if let hold = resume.hold { parts.append(Self.holdText(hold, about: q, in: scenario)) }
        }
        return parts.joined(separator: "; ")
    }

    /// The grouped report, a line per cause and, indented under a
    /// suspension, its story: what `trace` prints after "run stalled" and
    /// the interface's `y` shows first.
    public static func reportLines(
        _ causes: [StallCause], in scenario: Scenario, waiting: Bool = false, dash: String = "\u{2014}"
    ) -> [String] {
        var lines: [String] = []
        for cause in causes {
            lines.append(cause.line(in: scenario, waiting: waiting, dash: dash))
            if let story = cause.story(in: scenario) { lines.append("  " + story) }
        }
        return lines
    }

    // MARK: - Pieces

    /// `a12-sheet's completion block (line 52)`, `'at 6s resume photos' (line 12)`.
    public static func resumeText(_ resume: Resume, in scenario: Scenario) -> String {
        originText(resume.origin, in: scenario)
    }

    /// Who did an action, as a stall's story says it.
    public static func originText(_ origin: ActionOrigin, in scenario: Scenario) -> String {
        switch origin {
        case .timed(let index):
            guard scenario.actions.indices.contains(index) else { return "an 'at' line" }
            let timed = scenario.actions[index]
            let action = ScenarioPrinter.actionText(timed.action, in: scenario)
            return "'at \(Spelling.duration(timed.time)) \(action)'" + lineText(timed.location)
        case .completion(let op):
            guard scenario.contains(op) else { return "a completion block" }
            return "\(Spelling.possessive(scenario.opName(op))) completion block"
                + lineText(scenario[operation: op].location)
        case .user:
            return "a key press"
        case .startBatch(let index):
            guard scenario.startBatches.indices.contains(index) else { return "the start's 'add' line" }
            let batch = scenario.startBatches[index]
            let names = batch.operations.map { scenario.opName($0) }.joined(separator: ", ")
            return "'add \(names)'" + lineText(batch.location)
        }
    }

    /// ` (line 12)`, or nothing for a scenario made in code.
    private static func lineText(_ location: SourceLocation) -> String {
        location.line > 0 ? " (line \(location.line))" : ""
    }

    /// Why a resume's completion block never runs, said from the
    /// suspension of `queue`: `a12-sheet waits for a12-p4, on photos`.
    public static func holdText(_ hold: Hold, about queue: QueueID, in scenario: Scenario) -> String {
        let name = scenario.opName
        let op = name(hold.op)
        let waits: String
        if hold.op == hold.root {
            waits = op
        } else if let via = hold.via {
            waits = "\(op) waits for \(name(via)), which waits for \(name(hold.root))"
        } else {
            waits = "\(op) waits for \(name(hold.root))"
        }
        let direct = hold.op == hold.root
        switch hold.cause {
        case .suspension(let q):
            let too = q == queue ? "" : ", suspended too"
            return direct ? "\(op) is on \(scenario.queueName(q))\(too)" : "\(waits), on \(scenario.queueName(q))\(too)"
        case .neverPostedFinish:
            return direct ? "\(op) never posted isFinished" : "\(waits), which never posted isFinished"
        case .slotsHeld(let q, _, _):
            let slot = "a slot of \(scenario.queueName(q)), whose slots are held for good"
            return direct ? "\(op) waits for \(slot)" : "\(waits), which waits for \(slot)"
        case .mainThreadBlocked:
            return direct
                ? "\(op) is on the main queue, and the main thread is blocked in a wait"
                : "\(waits), on the main queue, and the main thread is blocked in a wait"
        case .notStartedByHand:
            return direct
                ? "\(op) is in no queue, and nothing calls its start()"
                : "\(waits), which is in no queue, and nothing calls its start()"
        case .unknown:
            return direct
                ? "\(op) is unfinished, for a reason the run cannot tell"
                : "\(waits), which is unfinished for a reason the run cannot tell"
        }
    }
}
