import Foundation
import ScenarioKit
import TextKit

/// Turns events into words: the text trace's aligned lines, the
/// interface's log lines, and the phrases of actions, origins and stuck
/// reasons that the timeline, the chrome export and the reports share
/// (docs/SCENARIO-LANGUAGE.md, "The text trace"). JSON Lines are
/// `RunFormats`' `JSONLineEncoder`'s, which adds `json(_:)` here.
///
/// Pure: it needs the scenario only to turn indices back into names.
public struct EventFormatter: Sendable {
    public let scenario: Scenario
    private let nameWidth: Int
    private let queueWidth: Int
    /// The operations started by hand: their lines name no queue (`-`).
    private let byHand: Set<OperationID>

    public init(scenario: Scenario) {
        self.scenario = scenario
        byHand = scenario.startedByHand
        nameWidth = max(4, scenario.operations.map(\.name.count).max() ?? 0)
        queueWidth = max(5, scenario.queues.map(\.name.count).max() ?? 0)
    }

    // MARK: - Text

    /// The header line matching `text(_:)`'s columns.
    public var textHeader: String {
        pad("seq", 6, right: true) + "  " + pad("time", 7, right: true) + "  "
            + pad("kind", 10) + "  " + pad("queue", queueWidth) + "  "
            + pad("name", nameWidth) + "  " + "what"
    }

    /// One aligned line: `    8    0.002  op          net    fetch  isExecuting  false → true`.
    public func text(_ event: LifecycleEvent) -> String {
        let prefix =
            pad(String(event.seq), 6, right: true) + "  "
            + pad(Spelling.secondsNumber(event.time), 7, right: true) + "  "
        let (kind, queue, name, what) = textColumns(event)
        return prefix + pad(kind, 10) + "  " + pad(queue, queueWidth) + "  "
            + pad(name, nameWidth) + "  " + what
    }

    /// The log line the interface shows: `0.412  fetch  isExecuting false → true`
    /// (an operation's line names the operation, a queue's line the queue).
    public func logLine(_ event: LifecycleEvent) -> String {
        let (kind, queue, name, padded) = textColumns(event, grouped: true)
        // The log pane is narrow: no column padding inside the description.
        let what = padded.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        let subject = name.isEmpty ? queue : name
        let body = subject.isEmpty ? kind + "  " + what : subject + "  " + what
        return Spelling.secondsNumber(event.time) + "  " + body
    }

    /// `grouped`: a stall lists operations that share a reason together.
    private func textColumns(_ event: LifecycleEvent, grouped: Bool = false) -> (String, String, String, String) {
        switch event.kind {
        case .operation(let op, let key, let old, let new):
            let spec = scenario[operation: op]
            var change: String
            if let old {
                change = "\(textValue(old)) → \(textValue(new))"
            } else {
                change = "\(textValue(new))  (initial: added to its queue)"
            }
            if let thread = event.thread { change += "  on thread \(thread)" }
            return (
                spec.isBarrier ? "barrier" : "op", queueColumn(op), spec.name,
                pad(key.rawValue, 14) + "  " + change
            )
        case .queue(let q, let key, let old, let new):
            let change = old.map { "\(textValue($0)) → \(textValue(new))" } ?? textValue(new)
            return ("queue", queueName(q), "", pad(key.rawValue, 14) + "  " + change)
        case .dispatched(let op):
            let spec = scenario[operation: op]
            let to = scenario[queue: spec.queue].isMain ? "  to the main queue (the main thread runs it)" : ""
            return (spec.isBarrier ? "barrier" : "op", queueColumn(op), spec.name, "dispatched" + to)
        case .block(let op, let index, let phase, let thread):
            let spec = scenario[operation: op]
            return (
                "block", queueColumn(op), spec.name,
                "execution block \(index + 1) \(phase.rawValue) on thread \(thread)"
            )
        case .completion(let op, let thread):
            let spec = scenario[operation: op]
            return (
                "completion", queueColumn(op), spec.name,
                "completion block ran on thread \(thread)"
            )
        case .stranded(let op):
            let spec = scenario[operation: op]
            return (
                "stranded", queueColumn(op), spec.name,
                "start() saw isCancelled and returned without posting isFinished: its queue counts it as running"
            )
        case .leftover(let op, let phase):
            let spec = scenario[operation: op]
            let what =
                phase == .started
                ? "main() returns, leaving work it started running" : "the work its main() left running ended"
            return ("leftover", queueColumn(op), spec.name, what)
        case .mainThreadWait(let action, let phase):
            return ("wait", "", "main", Self.waitText(action, phase, in: scenario))
        case .startCall(let op, let phase):
            return ("call", "", "main", Self.startCallText(op, phase, in: scenario))
        case .action(let action, let origin, let ignored):
            var what = actionText(action) + "  (" + originText(origin) + ")"
            // A refused start is a call not made, not an action ignored.
            if let ignored { what += (ignored.refusesStart ? "  not called: " : "  ignored: ") + ignored.text }
            return ("action", "", "", what)
        case .caption(let index, let paused):
            guard scenario.captions.indices.contains(index) else { return ("caption", "", "", "#\(index)") }
            let caption = scenario.captions[index]
            var what = "say " + Self.quote(caption.text)
            switch caption.trigger {
            case .at(let time): what += "  (at \(Spelling.duration(time)))"
            case .when(let op, let moment): what += "  (when \(opName(op)) \(moment.rawValue))"
            }
            if paused { what += "  paused here (lesson mode)" }
            return ("caption", "", "", what)
        case .stall(let stuck):
            let parts =
                grouped
                ? stuckGroups(stuck, waiting: true).map { "\($0.names): \($0.reason)" }
                : stuck.keys.sorted().map { op in
                    "\(scenario[operation: op].name): \(stuckText(stuck[op]!, of: op, waiting: true))"
                }
            return ("stall", "", "", "nothing can progress until you act — " + parts.joined(separator: "; "))
        case .end(let outcome):
            switch outcome {
            case .completed:
                return ("end", "", "", "completed")
            case .stalled(let stuck):
                // Grouped by reason: a hundred operations behind one
                // suspended queue are one part, not a hundred (the report
                // after the stream groups them by root cause).
                let parts = stuckGroups(stuck, waiting: false).map { "\($0.names): \($0.reason)" }
                return ("end", "", "", "stalled — " + parts.joined(separator: "; "))
            }
        }
    }

    /// `fetch.waitUntilFinished() started: the main thread blocks until it returns`.
    public static func waitText(_ action: Action, _ phase: BlockPhase, in scenario: Scenario) -> String {
        let call = waitCall(action, in: scenario)
        switch phase {
        case .started: return call + " started: the main thread is blocked until it returns"
        case .returned: return call + " returned"
        }
    }

    /// `fetch.start() called by hand: the main thread runs nothing else
    /// until it returns`.
    public static func startCallText(_ op: OperationID, _ phase: BlockPhase, in scenario: Scenario) -> String {
        let call = scenario.opName(op) + ".start()"
        switch phase {
        case .started: return call + " called by hand: the main thread runs nothing else until it returns"
        case .returned: return call + " returned"
        }
    }

    /// The Foundation call of a wait: `fetch.waitUntilFinished()`,
    /// `net.waitUntilAllOperationsAreFinished()`.
    public static func waitCall(_ action: Action, in scenario: Scenario) -> String {
        switch action {
        case .wait(let op): scenario.opName(op) + ".waitUntilFinished()"
        case .waitAll(let q): scenario.queueName(q) + ".waitUntilAllOperationsAreFinished()"
        default: ScenarioPrinter.actionText(action, in: scenario)
        }
    }

    // MARK: - Quoting

    /// A JSON string literal: quotes, backslashes and control characters
    /// escaped (the text trace's captions, as the JSON Lines write them).
    public static func quote(_ s: String) -> String {
        var bytes: [UInt8] = []
        JSONBytes.appendQuoted(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Pieces

    /// Why an operation is stuck (`StuckReason.clause`).
    /// `op`: the operation stuck, when known: one of the user's classes
    /// that never told Foundation it finished is said so.
    public func stuckText(_ reason: StuckReason, of op: OperationID? = nil, waiting: Bool = false) -> String {
        if reason == .neverPostedFinish, let op, case .custom = scenario[operation: op].body {
            return "its class says isFinished is true, but Foundation was never told"
        }
        return reason.clause(in: scenario, waiting: waiting)
    }

    /// The stuck operations grouped by the text of their reason, in the
    /// order of their first operation: `names` lists a group of up to three
    /// in full and a larger one as `dl029, dl030 and 70 more`.
    public func stuckGroups(
        _ stuck: [OperationID: StuckReason], waiting: Bool
    ) -> [(names: String, count: Int, reason: String)] {
        var order: [String] = []
        var members: [String: [String]] = [:]
        for op in stuck.keys.sorted() {
            let reason = stuckText(stuck[op]!, of: op, waiting: waiting)
            if members[reason] == nil { order.append(reason) }
            members[reason, default: []].append(scenario[operation: op].name)
        }
        return order.map { reason in
            let names = members[reason]!
            let shown =
                names.count <= 3
                ? Spelling.list(names) : "\(names[0]), \(names[1]) and \(names.count - 2) more"
            return (shown, names.count, reason)
        }
    }

    /// An action as the language writes it: `cancel thumbs`, `max net 4`.
    public func actionText(_ action: Action) -> String { ScenarioPrinter.actionText(action, in: scenario) }

    private func originText(_ origin: ActionOrigin) -> String { Self.originText(origin, in: scenario) }

    /// Who did an action, as every export says it: `at 300ms, line 12` (the
    /// `at` line of the file), `completion block of save, line 5` (the line
    /// of the operation whose completion block it was), `key pressed`. The
    /// line only where the scenario knows it (a file's, not one made in
    /// code).
    public static func originText(_ origin: ActionOrigin, in scenario: Scenario) -> String {
        func line(_ location: SourceLocation) -> String { location.line > 0 ? ", line \(location.line)" : "" }
        switch origin {
        case .timed(let index):
            guard scenario.actions.indices.contains(index) else { return "at an 'at' line" }
            let timed = scenario.actions[index]
            return "at \(Spelling.duration(timed.time))" + line(timed.location)
        case .completion(let op):
            guard scenario.contains(op) else { return "a completion block" }
            return "completion block of \(scenario[operation: op].name)" + line(scenario[operation: op].location)
        case .user:
            return "key pressed"
        case .startBatch(let index):
            guard scenario.startBatches.indices.contains(index) else { return "at the start" }
            return "at the start" + line(scenario.startBatches[index].location)
        }
    }

    /// Who did an action, short, after "by" where a view already says
    /// what was done and when: `line 16` (the `at` line of the file; `the
    /// 'at 300ms' line` for a scenario made in code), `fetch's completion
    /// block`, `a key`.
    public static func byText(_ origin: ActionOrigin, in scenario: Scenario) -> String {
        switch origin {
        case .timed(let index):
            guard scenario.actions.indices.contains(index) else { return "an 'at' line" }
            let timed = scenario.actions[index]
            return timed.location.line > 0
                ? "line \(timed.location.line)" : "the 'at \(Spelling.duration(timed.time))' line"
        case .completion(let op):
            guard scenario.contains(op) else { return "a completion block" }
            return "\(Spelling.possessive(scenario[operation: op].name)) completion block"
        case .user:
            return "a key"
        case .startBatch(let index):
            guard scenario.startBatches.indices.contains(index), scenario.startBatches[index].location.line > 0 else {
                return "the start's 'add' line"
            }
            return "line \(scenario.startBatches[index].location.line)"
        }
    }

    /// An action as the exports mark it: `cancel polite (at 300ms, line
    /// 12)`, `cancel fetch (key pressed; ignored: already finished)`.
    public static func actionMark(
        _ action: Action, origin: ActionOrigin, ignored: ActionRefusal?, in scenario: Scenario
    ) -> String {
        let ignoredText = ignored.map { "; ignored: " + $0.text } ?? ""
        return ScenarioPrinter.actionText(action, in: scenario) + " (" + originText(origin, in: scenario)
            + ignoredText + ")"
    }

    private func textValue(_ value: KeyValue) -> String {
        switch value {
        case .bool(let b): String(b)
        case .int(let n): String(n)
        case .priority(let p): p.rawValue
        }
    }

    private func opName(_ op: OperationID) -> String { scenario[operation: op].name }
    private func queueName(_ q: QueueID) -> String { scenario[queue: q].name }

    /// The queue column of an operation's line: its queue, or `-` for one
    /// started by hand, which no queue holds.
    private func queueColumn(_ op: OperationID) -> String {
        !byHand.isEmpty && byHand.contains(op) ? "-" : queueName(scenario[operation: op].queue)
    }

    /// `default` or the number, as the language writes a cap.
    public static func capText(_ cap: ConcurrencyCap) -> String {
        cap == .systemDefault ? "default" : String(cap.foundationValue)
    }

    private func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let n = s.count
        guard n < width else { return s }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + s : s + fill
    }
}
