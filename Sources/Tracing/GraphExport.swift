import Board
import RunEvents
import ScenarioKit
import TextKit

/// `trace --format dot` and `--format mermaid`: the scenario's dependency
/// graph with what the run did to each operation. Nodes are grouped by
/// queue, an edge goes from a dependency to what depends on it (the order
/// work flows in), and each node says how its operation ended and when it
/// ran; a barrier is drawn as one.
///
/// An edge is an `after` clause, or a wait the barrier rule makes
/// (`BarrierRule`, the one the critical path follows): dashed and
/// labelled `barrier`, the barrier's node naming its queue.
///
/// The moments come from the events the run gave (`RunFacts`), so a
/// recording exports the same graph as the run it recorded, and a run
/// stopped by a signal exports what it had reached.
package struct GraphExport: Sendable {
    package enum Dialect: Sendable {
        /// Graphviz's language: `dot -Tsvg` draws it.
        case dot
        /// A Mermaid flowchart, as GitHub renders in a ```mermaid block.
        case mermaid
    }

    let dialect: Dialect
    private(set) var facts: RunFacts

    package init(_ dialect: Dialect, scenario: Scenario) {
        self.dialect = dialect
        facts = RunFacts(scenario: scenario)
    }

    var scenario: Scenario { facts.scenario }

    package mutating func read(_ batch: [LifecycleEvent]) {
        for event in batch { facts.record(event) }
    }

    /// The graph as its dialect writes it; `interrupted` when a signal
    /// stopped the run before its end.
    package func render(interrupted: Bool = false) -> String {
        switch dialect {
        case .dot: dotText(interrupted: interrupted)
        case .mermaid: mermaidText(interrupted: interrupted)
        }
    }

    // MARK: - What a node says

    /// How the run left `op`, in the words the quiz uses; `not started`
    /// when the run ended or stopped before it started and nothing
    /// cancelled it.
    func state(of op: OperationID) -> String {
        let state = facts.finalState(of: op)
        if state == .stuck, facts[op].started == nil {
            return facts.outcome == nil ? "not started" : "never started"
        }
        return state.rawValue
    }

    /// `finished 0.001→0.101s`, `skipped at 0.300s`, `never started`.
    func summary(of op: OperationID) -> String {
        let f = facts[op]
        let state = state(of: op)
        if let started = f.started {
            let end = f.finished.map { "→" + Spelling.seconds($0.time) } ?? "→"
            return "\(state) \(Spelling.seconds(started.time).dropLast())\(end)"
        }
        if let finished = f.finished { return "\(state) at \(Spelling.seconds(finished.time))" }
        if let cancelled = f.cancelled { return "\(state), cancelled at \(Spelling.seconds(cancelled.time))" }
        return state
    }

    /// The colour of each final state: what the board shows, in light
    /// tones that keep black text readable.
    static func fill(_ state: String) -> String {
        switch state {
        case "finished": "#c8e6c9"
        case "cancelled": "#ffe0b2"
        case "skipped": "#e0e0e0"
        case "stuck": "#ffcdd2"
        default: "#ffffff"
        }
    }

    /// The title line: the scenario and how the run ended.
    func caption(interrupted: Bool) -> String {
        let title = scenario.title ?? "opscope"
        let ending: String
        switch facts.outcome {
        case .completed?: ending = "completed at \(Spelling.seconds(facts.endTime))"
        case .stalled(let stuck)?:
            ending = "stalled at \(Spelling.seconds(facts.endTime)) with \(stuck.count) stuck"
        case nil:
            ending = interrupted ? "stopped at \(Spelling.seconds(facts.endTime))" : "not ended"
        }
        return "\(title) — run \(ending)"
    }

    func queueLabel(_ q: QueueID) -> String {
        let spec = scenario[queue: q]
        if spec.isMain { return "\(spec.name) (OperationQueue.main)" }
        return spec.isSerial
            ? "\(spec.name) (serial)" : "\(spec.name) (cap \(EventFormatter.capText(spec.cap)))"
    }

    /// A group's label: its queue's, or, for the group after the queues,
    /// that its operations are started by hand and in no queue.
    func groupLabel(_ group: Int) -> String {
        group < scenario.queues.count ? queueLabel(QueueID(group)) : "by hand (in no queue)"
    }

    /// Per queue, its operations in scenario order; then, in a group of
    /// their own, those started by hand, which no queue holds.
    var operationsByQueue: [[OperationID]] {
        var byQueue = [[OperationID]](repeating: [], count: scenario.queues.count + 1)
        let byHand = scenario.startedByHand
        for (i, spec) in scenario.operations.enumerated() where scenario.queues.indices.contains(spec.queue.index) {
            byQueue[byHand.contains(OperationID(i)) ? scenario.queues.count : spec.queue.index].append(OperationID(i))
        }
        return byQueue
    }
}
