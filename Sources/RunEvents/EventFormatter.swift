import Foundation
import ScenarioKit
import TextKit

/// Turns events into the two trace formats: aligned text for people and
/// JSON Lines for scripts (SCENARIO-LANGUAGE.md, "The event stream").
///
/// Pure: it needs the scenario only to turn indices back into names.
public struct EventFormatter: Sendable {
    public let scenario: Scenario
    private let nameWidth: Int
    private let queueWidth: Int

    public init(scenario: Scenario) {
        self.scenario = scenario
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
                spec.isBarrier ? "barrier" : "op", queueName(spec.queue), spec.name,
                pad(key.rawValue, 14) + "  " + change
            )
        case .queue(let q, let key, let old, let new):
            let change = old.map { "\(textValue($0)) → \(textValue(new))" } ?? textValue(new)
            return ("queue", queueName(q), "", pad(key.rawValue, 14) + "  " + change)
        case .block(let op, let index, let phase, let thread):
            let spec = scenario[operation: op]
            return (
                "block", queueName(spec.queue), spec.name,
                "execution block \(index + 1) \(phase.rawValue) on thread \(thread)"
            )
        case .completion(let op, let thread):
            let spec = scenario[operation: op]
            return (
                "completion", queueName(spec.queue), spec.name,
                "completion block ran on thread \(thread)"
            )
        case .action(let action, let origin, let ignored):
            var what = actionText(action) + "  (" + originText(origin) + ")"
            if let ignored { what += "  ignored: " + ignored.text }
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
                    "\(scenario[operation: op].name): \(stuckText(stuck[op]!, waiting: true))"
                }
            return ("stall", "", "", "nothing can progress until you act — " + parts.joined(separator: "; "))
        case .end(let outcome):
            switch outcome {
            case .completed:
                return ("end", "", "", "completed")
            case .stalled(let stuck):
                let parts = stuck.keys.sorted().map { op in
                    "\(scenario[operation: op].name): \(stuckText(stuck[op]!))"
                }
                return ("end", "", "", "stalled — " + parts.joined(separator: "; "))
            }
        }
    }

    // MARK: - JSON Lines

    /// One JSON object, keys in the order of the language reference.
    public func json(_ event: LifecycleEvent) -> String {
        var out = "{\"seq\":\(event.seq),\"t\":\(Spelling.secondsNumber(event.time)),"
        switch event.kind {
        case .operation(let op, let key, let old, let new):
            let spec = scenario[operation: op]
            out += "\"kind\":\"op\",\"op\":\(Self.quote(spec.name)),\"queue\":\(Self.quote(queueName(spec.queue))),"
            out += "\"key\":\"\(key.rawValue)\",\"old\":\(old.map(jsonValue) ?? "null"),\"new\":\(jsonValue(new))"
            if let thread = event.thread { out += ",\"thread\":\(Self.quote(thread.description))" }
        case .queue(let q, let key, let old, let new):
            out += "\"kind\":\"queue\",\"queue\":\(Self.quote(queueName(q))),"
            out += "\"key\":\"\(key.rawValue)\",\"old\":\(old.map(jsonValue) ?? "null"),\"new\":\(jsonValue(new))"
        case .block(let op, let index, let phase, let thread):
            out += "\"kind\":\"block\",\"op\":\(Self.quote(scenario[operation: op].name)),"
            out += "\"index\":\(index),\"phase\":\"\(phase.rawValue)\",\"thread\":\(Self.quote(thread.description))"
        case .completion(let op, let thread):
            out += "\"kind\":\"completion\",\"op\":\(Self.quote(scenario[operation: op].name)),"
            out += "\"thread\":\(Self.quote(thread.description))"
        case .action(let action, let origin, let ignored):
            out += "\"kind\":\"action\"," + actionJSON(action)
            switch origin {
            case .timed: out += ",\"origin\":\"at\""
            case .completion(let op):
                out += ",\"origin\":\"completion\",\"by\":\(Self.quote(scenario[operation: op].name))"
            case .user: out += ",\"origin\":\"user\""
            }
            if let ignored { out += ",\"ignored\":\(Self.quote(ignored.text))" }
        case .caption(let index, let paused):
            out += "\"kind\":\"caption\""
            if scenario.captions.indices.contains(index) {
                let caption = scenario.captions[index]
                out += ",\"text\":\(Self.quote(caption.text))"
                if case .when(let op, let moment) = caption.trigger {
                    out += ",\"op\":\(Self.quote(opName(op))),\"moment\":\"\(moment.rawValue)\""
                }
            }
            if paused { out += ",\"paused\":true" }
        case .stall(let stuck):
            let parts = stuck.keys.sorted().map { op in
                "\(Self.quote(scenario[operation: op].name)):\(Self.quote(stuckText(stuck[op]!, waiting: true)))"
            }
            out += "\"kind\":\"stall\",\"stuck\":{" + parts.joined(separator: ",") + "}"
        case .end(let outcome):
            switch outcome {
            case .completed:
                out += "\"kind\":\"end\",\"status\":\"completed\""
            case .stalled(let stuck):
                let parts = stuck.keys.sorted().map { op in
                    "\(Self.quote(scenario[operation: op].name)):\(Self.quote(stuckText(stuck[op]!)))"
                }
                out += "\"kind\":\"end\",\"status\":\"stalled\",\"stuck\":{" + parts.joined(separator: ",") + "}"
            }
        }
        return out + "}"
    }

    // MARK: - Pieces

    /// Why an operation is stuck (`StuckReason.clause`).
    public func stuckText(_ reason: StuckReason, waiting: Bool = false) -> String {
        reason.clause(in: scenario, waiting: waiting)
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
            let reason = stuckText(stuck[op]!, waiting: waiting)
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

    private func actionJSON(_ action: Action) -> String {
        switch action {
        case .cancel(let op): "\"action\":\"cancel\",\"target\":\(Self.quote(opName(op)))"
        case .cancelAll(let q): "\"action\":\"cancel-all\",\"target\":\(Self.quote(queueName(q)))"
        case .suspend(let q): "\"action\":\"suspend\",\"target\":\(Self.quote(queueName(q)))"
        case .resume(let q): "\"action\":\"resume\",\"target\":\(Self.quote(queueName(q)))"
        case .setCap(let q, let cap):
            "\"action\":\"max\",\"target\":\(Self.quote(queueName(q))),\"value\":"
                + (cap == .systemDefault ? "\"default\"" : String(cap.foundationValue))
        case .setPriority(let op, let level):
            "\"action\":\"priority\",\"target\":\(Self.quote(opName(op))),\"value\":\"\(level.rawValue)\""
        case .add(let op): "\"action\":\"add\",\"target\":\(Self.quote(opName(op)))"
        }
    }

    private func originText(_ origin: ActionOrigin) -> String {
        switch origin {
        case .timed(let index):
            let time = index < scenario.actions.count ? scenario.actions[index].time : .zero
            return "at \(Spelling.duration(time))"
        case .completion(let op): return "completion block of \(opName(op))"
        case .user: return "key pressed"
        }
    }

    private func textValue(_ value: KeyValue) -> String {
        switch value {
        case .bool(let b): String(b)
        case .int(let n): String(n)
        case .priority(let p): p.rawValue
        }
    }

    private func jsonValue(_ value: KeyValue) -> String {
        switch value {
        case .bool(let b): String(b)
        case .int(let n): String(n)
        case .priority(let p): "\"\(p.rawValue)\""
        }
    }

    private func opName(_ op: OperationID) -> String { scenario[operation: op].name }
    private func queueName(_ q: QueueID) -> String { scenario[queue: q].name }

    /// `default` or the number, as the language writes a cap.
    public static func capText(_ cap: ConcurrencyCap) -> String {
        cap == .systemDefault ? "default" : String(cap.foundationValue)
    }

    /// A JSON string literal.
    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let n = s.count
        guard n < width else { return s }
        let fill = String(repeating: " ", count: width - n)
        return right ? fill + s : s + fill
    }
}
