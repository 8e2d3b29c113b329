import TextKit

/// The diagnostics of `add A, B, …` (at the top level, or after `at
/// TIME`): several operations in one `addOperations` call
/// (docs/SCENARIO-LANGUAGE.md, "Several operations in one call").
extension Diagnostic {
    /// `add OP` at the top level: one operation is added at the start
    /// anyway, on its own.
    public static func startAddNeedsTwo(at location: SourceLocation) -> Diagnostic {
        .error(
            "'add' at the top level adds two or more operations in one call", at: location,
            notes: [
                "an operation is added at the start on its own anyway; 'at TIME add OP' adds it later"
            ])
    }

    /// A barrier named in an `add` of several operations.
    public static func barrierInBatch(_ name: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "'\(name)' is a barrier: it cannot be added with other operations in one call", at: location,
            notes: ["'addBarrierBlock' adds a barrier on its own; 'addOperations' takes operations"])
    }

    /// Operations of two queues in one `add` of several operations.
    public static func batchAcrossQueues(
        _ name: String, queue: String, first: String, firstQueue: String, at location: SourceLocation
    ) -> Diagnostic {
        .error(
            "'\(name)' is on queue '\(queue)', '\(first)' on '\(firstQueue)': one call adds to one queue",
            at: location,
            notes: ["'addOperations' is a method of one queue: write one 'add' for each queue"])
    }
}
