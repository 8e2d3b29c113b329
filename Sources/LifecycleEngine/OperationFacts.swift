import ScenarioKit

/// What the scenario fixes about each of a run's operations, by index:
/// the declared dependencies both ways, the kind, the queue, the work and
/// the clauses the hot path asks about. Made once with the run and never
/// changed (every field is a `let`), apart from what the run's rules
/// change as it goes (`RunModel.records`), so that those rules can rely
/// on these never moving under them.
struct OperationFacts {
    /// The declared dependencies, both ways.
    let graph: DependencyGraph
    let kinds: [RunModel.Kind]
    let queueOf: [Int32]
    /// Simulated work, scenario seconds (a `blocks` operation's, all its
    /// blocks').
    let durations: [Double]
    /// A completion block runs after its finish (never a barrier's).
    let hasCompletion: [Bool]
    /// An asynchronous operation that never posts `isFinished`.
    let neverFinishes: [Bool]
    let ignoresCancel: [Bool]
    /// By operation index: the main thread starts it by hand (a `start`
    /// action names it) and no queue holds it. Empty when the scenario has
    /// no `start` action (the hot path then skips: `isByHand`).
    private let byHand: [Bool]

    init(_ scenario: Scenario) {
        let specs = scenario.operations
        graph = DependencyGraph(scenario)
        // One pass over the specs (made before the first add, on the start's
        // critical path): a pass for each field walked them seven times.
        var kinds: [RunModel.Kind] = []
        var queueOf: [Int32] = []
        var durations: [Double] = []
        var hasCompletion: [Bool] = []
        var neverFinishes: [Bool] = []
        var ignoresCancel: [Bool] = []
        kinds.reserveCapacity(specs.count)
        queueOf.reserveCapacity(specs.count)
        durations.reserveCapacity(specs.count)
        hasCompletion.reserveCapacity(specs.count)
        neverFinishes.reserveCapacity(specs.count)
        ignoresCancel.reserveCapacity(specs.count)
        for spec in specs {
            switch spec.body {
            case .work: kinds.append(.work)
            case .custom: kinds.append(.custom)
            case .blocks: kinds.append(.blocks)
            case .async: kinds.append(.async)
            case .barrier: kinds.append(.barrier)
            }
            queueOf.append(Int32(spec.queue.index))
            durations.append(spec.body.totalDuration.seconds)
            hasCompletion.append(spec.completion != nil && !spec.isBarrier)
            neverFinishes.append(spec.neverFinishes && spec.body.isAsync)
            ignoresCancel.append(spec.ignoresCancel)
        }
        self.kinds = kinds
        self.queueOf = queueOf
        self.durations = durations
        self.hasCompletion = hasCompletion
        self.neverFinishes = neverFinishes
        self.ignoresCancel = ignoresCancel
        let hand = scenario.startedByHand
        byHand = hand.isEmpty ? [] : specs.indices.map { hand.contains(OperationID($0)) }
    }

    /// How many operations the run has.
    var count: Int { kinds.count }

    /// Operation `i` is started by hand: in no queue, it counts in none.
    @inline(__always) func isByHand(_ i: Int) -> Bool { !byHand.isEmpty && byHand[i] }
}
