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
        kinds = specs.map {
            switch $0.body {
            case .work: .work
            case .blocks: .blocks
            case .async: .async
            case .barrier: .barrier
            }
        }
        queueOf = specs.map { Int32($0.queue.index) }
        durations = specs.map { $0.body.totalDuration.seconds }
        hasCompletion = specs.map { $0.completion != nil && !$0.isBarrier }
        neverFinishes = specs.map { $0.neverFinishes && $0.body.isAsync }
        ignoresCancel = specs.map { $0.ignoresCancel }
        let hand = scenario.startedByHand
        byHand = hand.isEmpty ? [] : specs.indices.map { hand.contains(OperationID($0)) }
    }

    /// How many operations the run has.
    var count: Int { kinds.count }

    /// Operation `i` is started by hand: in no queue, it counts in none.
    @inline(__always) func isByHand(_ i: Int) -> Bool { !byHand.isEmpty && byHand[i] }
}
