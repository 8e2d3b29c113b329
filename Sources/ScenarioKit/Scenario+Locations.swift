extension Scenario {
    /// The same scenario with every `SourceLocation` set to 0:0, and the
    /// captions in the canonical print's order.
    ///
    /// Two readings of differently laid-out text (for example a file and
    /// its canonical print) describe the same scenario when their
    /// `withoutLocations` are equal. The order of the captions in the file
    /// means nothing beyond the order of `when` captions among themselves
    /// and of `at` captions of one time: so here the `when` captions come
    /// first, in file order, then the `at` captions by time, equal times in
    /// file order (as `ScenarioPrinter` writes them).
    public var withoutLocations: Scenario {
        let zero = SourceLocation(line: 0, column: 0)
        var copy = self
        for i in copy.queues.indices { copy.queues[i].location = zero }
        for i in copy.operations.indices { copy.operations[i].location = zero }
        for i in copy.actions.indices { copy.actions[i].location = zero }
        for i in copy.expectations.indices { copy.expectations[i].location = zero }
        for i in copy.startBatches.indices { copy.startBatches[i].location = zero }
        copy.quiz?.location = zero
        for i in copy.code.indices { copy.code[i].location = zero }
        copy.classLocations = classLocations.mapValues { _ in zero }
        copy.captions = captions.filter { $0.time == nil } + timedCaptions
        for i in copy.captions.indices { copy.captions[i].location = zero }
        return copy
    }
}
