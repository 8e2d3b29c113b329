extension Scenario {
    /// The same scenario with every `SourceLocation` set to 0:0.
    ///
    /// Two readings of differently laid-out text (for example a file and
    /// its canonical print) describe the same scenario when their
    /// `withoutLocations` are equal.
    public var withoutLocations: Scenario {
        let zero = SourceLocation(line: 0, column: 0)
        var copy = self
        for i in copy.queues.indices { copy.queues[i].location = zero }
        for i in copy.operations.indices { copy.operations[i].location = zero }
        for i in copy.actions.indices { copy.actions[i].location = zero }
        for i in copy.expectations.indices { copy.expectations[i].location = zero }
        copy.quiz?.location = zero
        return copy
    }
}
