import RunEvents
import ScenarioKit

/// One line of the log pane: an observer notification (or action, caption,
/// stall, end) as `EventFormatter.logLine` prints it, and the operation it
/// is about, so that `f` can show the lines of one operation.
public struct LogEntry: Sendable, Hashable {
    public var text: String
    /// The operation the line is about: its own keys, blocks and completion,
    /// and actions aimed at it. nil for queue keys, queue actions and the
    /// run's own lines.
    public var operation: OperationID?
    /// `seq` of the event.
    public var seq: Int

    public init(text: String, operation: OperationID? = nil, seq: Int = 0) {
        self.text = text
        self.operation = operation
        self.seq = seq
    }

    /// The log line of `event`.
    public init(_ event: LifecycleEvent, formatter: EventFormatter) {
        self.init(
            text: formatter.logLine(event), operation: Self.subject(of: event.kind, in: formatter.scenario),
            seq: event.seq)
    }

    static func subject(of kind: LifecycleEvent.Kind, in scenario: Scenario) -> OperationID? {
        switch kind {
        case .caption(let index, _):
            guard scenario.captions.indices.contains(index),
                case .when(let op, _) = scenario.captions[index].trigger
            else { return nil }
            return op
        case .operation(let op, _, _, _), .dispatched(let op), .block(let op, _, _, _), .completion(let op, _),
            .leftover(let op, _), .stranded(let op), .startCall(let op, _):
            return op
        case .action(let action, _, _):
            switch action {
            case .cancel(let op), .setPriority(let op, _), .add(let op), .wait(let op), .start(let op): return op
            case .addBatch(let ops): return ops.first
            case .cancelAll, .suspend, .resume, .setCap, .waitAll: return nil
            }
        case .mainThreadWait(let action, _):
            if case .wait(let op) = action { return op }
            return nil
        case .queue, .stall, .end:
            return nil
        }
    }
}
