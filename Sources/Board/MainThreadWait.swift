import RunEvents
import ScenarioKit
import TextKit

/// A wait the main thread is blocked in: the action that asked for it,
/// and when (scenario seconds) and at which event it began.
public struct MainThreadWait: Sendable, Hashable {
    public var action: Action
    public var since: Double
    public var seq: Int

    /// The Foundation call: `fetch.waitUntilFinished()`.
    public func call(in scenario: Scenario) -> String { EventFormatter.waitCall(action, in: scenario) }

    /// What a run that stalled while the main thread was blocked in
    /// `action` (since `since`) says of it: that it never returns, why,
    /// and what iOS would do. One sentence per line.
    public static func neverReturns(
        _ action: Action, since: Double, stuck: [OperationID: StuckReason], in scenario: Scenario
    ) -> [String] {
        let call = EventFormatter.waitCall(action, in: scenario)
        var lines = [
            "the main thread is blocked in \(call) since \(Spelling.seconds(since)), and nothing can make it return"
        ]
        if let holder = mainThreadHolder(action, stuck: stuck, in: scenario) {
            let name = scenario.opName(holder)
            let needs =
                holder == waitedOperation(action)
                ? "\(name) is on the main queue, and only the main thread runs it"
                : "what it waits for needs \(name), which is on the main queue, and only the main thread runs it"
            lines.append("a deadlock: \(needs): the thread that is waiting")
        }
        lines.append(
            "on iOS the app is frozen from here (no touch, no drawing), and the system's watchdog ends an app "
                + "that stays unresponsive (exception code 0x8badf00d)")
        return lines
    }

    private static func waitedOperation(_ action: Action) -> OperationID? {
        if case .wait(let op) = action { return op }
        return nil
    }

    /// The operation of the main queue that the wait's end comes down
    /// to, when it does: the waited operation itself, or the root of its
    /// chain of waits; for `wait-all`, the first such operation of the
    /// queue.
    private static func mainThreadHolder(
        _ action: Action, stuck: [OperationID: StuckReason], in scenario: Scenario
    ) -> OperationID? {
        func root(_ op: OperationID) -> OperationID? {
            switch stuck[op] {
            case .mainThreadBlocked?: op
            case .waitsFor(_, let root)? where stuck[root] == .mainThreadBlocked: root
            default: nil
            }
        }
        switch action {
        case .wait(let op): return root(op)
        case .waitAll(let q):
            return stuck.keys.sorted().lazy.filter { scenario[operation: $0].queue == q }.compactMap(root).first
        default: return nil
        }
    }
}
