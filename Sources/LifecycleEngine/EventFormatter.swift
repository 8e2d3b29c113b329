import Foundation
import ScenarioKit

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
        let prefix = pad(String(event.seq), 6, right: true) + "  "
            + pad(Self.seconds(event.time), 7, right: true) + "  "
        let (kind, queue, name, what) = textColumns(event.kind)
        return prefix + pad(kind, 10) + "  " + pad(queue, queueWidth) + "  "
            + pad(name, nameWidth) + "  " + what
    }

    /// The log line the interface shows: `0.412  net  fetch  isExecuting  false → true`.
    public func logLine(_ event: LifecycleEvent) -> String {
        let (kind, queue, name, padded) = textColumns(event.kind)
        // The log pane is narrow: no column padding inside the description.
        let what = padded.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        let subject = [queue, name].filter { !$0.isEmpty }.joined(separator: "  ")
        let body = subject.isEmpty ? kind + "  " + what : subject + "  " + what
        return Self.seconds(event.time) + "  " + body
    }

    private func textColumns(_ kind: LifecycleEvent.Kind) -> (String, String, String, String) {
        switch kind {
        case .operation(let op, let key, let old, let new):
            let spec = scenario[operation: op]
            let change: String
            if let old {
                change = "\(textValue(old)) → \(textValue(new))"
            } else {
                change = "\(textValue(new))  (initial: added to its queue)"
            }
            return (spec.isBarrier ? "barrier" : "op", queueName(spec.queue), spec.name,
                    pad(key.rawValue, 14) + "  " + change)
        case .queue(let q, let key, let old, let new):
            let change = old.map { "\(textValue($0)) → \(textValue(new))" } ?? textValue(new)
            return ("queue", queueName(q), "", pad(key.rawValue, 14) + "  " + change)
        case .block(let op, let index, let phase, let thread):
            let spec = scenario[operation: op]
            return ("block", queueName(spec.queue), spec.name,
                    "execution block \(index + 1) \(phase.rawValue) on thread \(thread)")
        case .completion(let op, let thread):
            let spec = scenario[operation: op]
            return ("completion", queueName(spec.queue), spec.name,
                    "completion block ran on thread \(thread)")
        case .action(let action, let origin, let ignored):
            var what = actionText(action) + "  (" + originText(origin) + ")"
            if let ignored { what += "  ignored: " + ignored }
            return ("action", "", "", what)
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
        var out = "{\"seq\":\(event.seq),\"t\":\(Self.seconds(event.time)),"
        switch event.kind {
        case .operation(let op, let key, let old, let new):
            let spec = scenario[operation: op]
            out += "\"kind\":\"op\",\"op\":\(Self.quote(spec.name)),\"queue\":\(Self.quote(queueName(spec.queue))),"
            out += "\"key\":\"\(key.rawValue)\",\"old\":\(old.map(jsonValue) ?? "null"),\"new\":\(jsonValue(new))"
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
            if let ignored { out += ",\"ignored\":\(Self.quote(ignored))" }
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

    /// Why an operation is stuck, as a clause that reads after its name.
    public func stuckText(_ reason: StuckReason) -> String {
        switch reason {
        case .neverPostedFinish:
            return "it never posted isFinished"
        case .queueSuspended(let q):
            return "its queue \(queueName(q)) is suspended and nothing resumes it"
        case .waitsFor(let dep, let root):
            let depName = scenario[operation: dep].name
            if dep == root { return "waits for \(depName), which never finishes" }
            return "waits for \(depName), which waits for \(scenario[operation: root].name), which never finishes"
        }
    }

    /// An action as the language writes it: `cancel thumbs`, `max net 4`.
    public func actionText(_ action: Action) -> String {
        switch action {
        case .cancel(let op): "cancel \(opName(op))"
        case .cancelAll(let q): "cancel-all \(queueName(q))"
        case .suspend(let q): "suspend \(queueName(q))"
        case .resume(let q): "resume \(queueName(q))"
        case .setCap(let q, let cap): "max \(queueName(q)) \(Self.capText(cap))"
        case .setPriority(let op, let level): "priority \(opName(op)) \(level.rawValue)"
        case .add(let op): "add \(opName(op))"
        }
    }

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
            let time = index < scenario.actions.count ? scenario.actions[index].time.seconds : 0
            return "at \(Self.durationText(time))"
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

    /// Scenario seconds with three decimals: `1.201`.
    public static func seconds(_ t: Double) -> String {
        let millis = Int((max(0, t) * 1000).rounded())
        let frac = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }

    /// A time as the language writes it: `500ms`, `1.5s`.
    public static func durationText(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        if millis % 1000 == 0 { return "\(millis / 1000)s" }
        if millis < 1000 || millis % 100 != 0 { return "\(millis)ms" }
        return "\(millis / 1000).\(millis % 1000 / 100)s"
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
