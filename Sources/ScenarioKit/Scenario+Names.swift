import TextKit

extension Scenario {
    /// The name of an operation for messages; a placeholder for an index the
    /// scenario does not have, so a malformed event never traps.
    public func opName(_ id: OperationID) -> String {
        operations.indices.contains(id.index) ? operations[id.index].name : "operation #\(id.index)"
    }

    /// The name of a queue for messages (see `opName`).
    public func queueName(_ id: QueueID) -> String {
        queues.indices.contains(id.index) ? queues[id.index].name : "queue #\(id.index)"
    }

    public func contains(_ id: OperationID) -> Bool { operations.indices.contains(id.index) }
    public func contains(_ id: QueueID) -> Bool { queues.indices.contains(id.index) }

    /// `a, b and c`, for sentences that name several operations.
    public func opNames(_ ids: some Sequence<OperationID>) -> String { Spelling.list(ids.map(opName)) }
}
