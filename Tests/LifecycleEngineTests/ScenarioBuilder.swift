import FoundationRules
import ScenarioKit

/// Builds `Scenario` values concisely (the parser is another module's job).
struct ScenarioBuilder {
    var queues: [QueueSpec] = []
    var operations: [OperationSpec] = []
    var actions: [TimedAction] = []

    @discardableResult
    mutating func queue(
        _ name: String, cap: ConcurrencyCap = .systemDefault, qos: QoSLevel? = nil,
        suspended: Bool = false, main: Bool = false
    ) -> QueueID {
        queues.append(QueueSpec(name: name, cap: cap, qos: qos, startsSuspended: suspended, isMain: main))
        return QueueID(queues.count - 1)
    }

    @discardableResult
    mutating func op(
        _ name: String, on queue: QueueID, _ body: OperationBody, after: [OperationID] = [],
        priority: PriorityLevel? = nil, qos: QoSLevel? = nil, completion: [Action]? = nil,
        ignoresCancel: Bool = false, neverFinishes: Bool = false
    ) -> OperationID {
        operations.append(
            OperationSpec(
                name: name, queue: queue, body: body, dependencies: DependencyList(after), priority: priority, qos: qos,
                completion: completion, ignoresCancel: ignoresCancel, neverFinishes: neverFinishes))
        return OperationID(operations.count - 1)
    }

    @discardableResult
    mutating func work(
        _ name: String, on queue: QueueID, ms: Int, after: [OperationID] = [],
        priority: PriorityLevel? = nil, qos: QoSLevel? = nil, completion: [Action]? = nil,
        ignoresCancel: Bool = false
    ) -> OperationID {
        op(
            name, on: queue, .work(.milliseconds(ms)), after: after, priority: priority, qos: qos,
            completion: completion, ignoresCancel: ignoresCancel)
    }

    @discardableResult
    mutating func async(
        _ name: String, on queue: QueueID, ms: Int, after: [OperationID] = [],
        priority: PriorityLevel? = nil, qos: QoSLevel? = nil, completion: [Action]? = nil,
        ignoresCancel: Bool = false, neverFinishes: Bool = false
    ) -> OperationID {
        op(
            name, on: queue, .async(.milliseconds(ms)), after: after, priority: priority, qos: qos,
            completion: completion, ignoresCancel: ignoresCancel, neverFinishes: neverFinishes)
    }

    @discardableResult
    mutating func barrier(_ name: String, on queue: QueueID, ms: Int = 0) -> OperationID {
        op(name, on: queue, .barrier(.milliseconds(ms)))
    }

    mutating func at(_ ms: Int, _ action: Action) {
        actions.append(TimedAction(time: .milliseconds(ms), action: action))
    }

    var scenario: Scenario {
        // Stable sort by time: equal times keep the order written.
        let sorted = actions.enumerated().sorted {
            $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset
        }.map(\.element)
        return Scenario(queues: queues, operations: operations, actions: sorted)
    }
}
