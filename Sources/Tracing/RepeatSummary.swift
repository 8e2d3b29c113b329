import Board
import Grading
import RunEvents
import ScenarioKit

/// `trace --repeat N`: the runs of one scenario folded into one summary,
/// a run at a time, keeping no run's events: per expectation how often it
/// held, the distinct start orders and how many runs each, how the runs
/// ended, and the facts that varied from run to run.
///
/// Memory does not grow with the number of runs beyond what the summary
/// says: per operation a few counters; per queue and for threads a count
/// per distinct value; the first `RunNumbers.kept` run numbers of each
/// list; the start orders seen, each once (their operations kept while
/// they hold at most `keptOrderOperations` in all, afterwards counted by a
/// digest only: `ordersNotKept`).
///
/// Each run is judged as a single trace judges it (`ExpectationJudge`,
/// `TraceVerdict`): only facts the engine reported are counted.
package struct RepeatSummary: Sendable {
    /// The operations of all kept start orders, at most, by default: past
    /// it, a new order is counted but not listed.
    package static let defaultKeptOrderOperations = 1_000_000

    package let scenario: Scenario
    /// Failed expectations decide the verdict (false when traced faster
    /// than the file's `speed … up to` promises).
    package let countsExpectations: Bool
    /// Runs folded so far.
    package private(set) var runs = 0
    /// Runs whose verdict failed (an expectation that counts failed, a
    /// stall on an operation no `expect stuck` names, no end).
    package private(set) var failedRuns = RunNumbers()
    package private(set) var completed = 0
    package private(set) var stalledRuns = RunNumbers()
    /// Stalled runs with an unfinished operation that no `expect stuck`
    /// names.
    package private(set) var unexpectedStalls = 0
    /// Runs that did not end (cut at the time limit).
    package private(set) var unendedRuns = RunNumbers()
    /// The first run that stalled: its number, the time it stalled at
    /// (scenario seconds), and each unfinished operation with its reason.
    package private(set) var firstStall: (run: Int, time: Double, stuck: [OperationID: StuckReason])?
    /// One per `expect` line, in file order.
    package private(set) var expectations: [ExpectationTally]
    /// The start orders kept, in the order first seen.
    package private(set) var orders: [StartOrder] = []
    private var orderIndex: [[OperationID]: Int] = [:]
    private var keptOperations = 0
    private let keptOrderOperations: Int
    /// Orders seen after the kept ones filled their budget: runs per digest.
    private var unkeptOrders: [UInt64: Int] = [:]
    /// Per operation, runs that ended in each `FinalState` (in its
    /// `allCases` order), and runs in which it started.
    private var endings: [Int32]
    private var startedRuns: [Int32]
    /// Per queue, runs per peak; runs per number of threads that ran
    /// operations.
    private var peaks: [[Int: Int]]
    private var threads: [Int: Int] = [:]
    private let expectedStuck: Set<OperationID>

    package init(
        scenario: Scenario, countsExpectations: Bool = true, keptOrderOperations: Int = defaultKeptOrderOperations
    ) {
        self.scenario = scenario
        self.countsExpectations = countsExpectations
        self.keptOrderOperations = keptOrderOperations
        expectations = scenario.expectations.map { ExpectationTally(expectation: $0) }
        endings = Array(repeating: 0, count: scenario.operations.count * FinalState.allCases.count)
        startedRuns = Array(repeating: 0, count: scenario.operations.count)
        peaks = Array(repeating: [:], count: scenario.queues.count)
        expectedStuck = Set(
            scenario.expectations.compactMap { expectation -> OperationID? in
                if case .stuck(let op) = expectation.claim { return op }
                return nil
            })
    }

    /// Whether every run so far passed: `trace --repeat`'s status 0.
    package var allPassed: Bool { failedRuns.count == 0 }

    /// Distinct start orders seen, kept or not.
    package var distinctOrders: Int { orders.count + unkeptOrders.count }
    /// Distinct orders seen after the budget for kept ones was spent.
    package var ordersNotKept: Int { unkeptOrders.count }
    /// Runs whose start order was not kept.
    package var runsOfOrdersNotKept: Int { unkeptOrders.values.reduce(0, +) }

    // MARK: - Folding

    /// Folds one finished run (or one cut at the time limit): judged as a
    /// single trace judges it.
    package mutating func add(_ run: RepeatRunReader) {
        let results = run.judge.results()
        let passes = TraceVerdict.passes(run.judge, results: results, countsExpectations: countsExpectations)
        add(run.facts, results: results, passes: passes)
    }

    /// Folds one run: its facts (tracking every operation), its verdicts
    /// in file order, and whether it passed.
    package mutating func add(_ facts: RunFacts, results: [ExpectationResult], passes: Bool) {
        runs += 1
        let run = runs
        if !passes { failedRuns.add(run) }
        switch facts.outcome {
        case .completed: completed += 1
        case .stalled(let stuck):
            stalledRuns.add(run)
            if firstStall == nil { firstStall = (run, facts.endTime, stuck) }
            if !stuck.keys.allSatisfy(expectedStuck.contains) { unexpectedStalls += 1 }
        case nil: unendedRuns.add(run)
        }
        for (i, result) in results.enumerated() where expectations.indices.contains(i) {
            expectations[i].add(result, run: run)
        }
        addOrder(facts.startOrder, run: run)
        var threadsOfRun = Set<Int>()
        for op in scenario.operations.indices {
            let id = OperationID(op)
            let state = facts.finalState(of: id)
            endings[op * FinalState.allCases.count + Self.stateIndex(state)] += 1
            let f = facts[id]
            if f.started != nil { startedRuns[op] += 1 }
            if let thread = f.thread { threadsOfRun.insert(thread.number) }
        }
        for q in scenario.queues.indices { peaks[q][facts.peak(of: QueueID(q)), default: 0] += 1 }
        threads[threadsOfRun.count, default: 0] += 1
    }

    private mutating func addOrder(_ order: [OperationID], run: Int) {
        if let i = orderIndex[order] {
            orders[i].runs += 1
        } else if keptOperations + order.count <= keptOrderOperations || orders.isEmpty {
            orderIndex[order] = orders.count
            orders.append(StartOrder(operations: order, runs: 1, firstRun: run))
            keptOperations += order.count
        } else {
            unkeptOrders[Self.digest(order), default: 0] += 1
        }
    }

    /// FNV-1a over the operations' indices: orders beyond the budget are
    /// told apart by it alone (two differing orders share one with a
    /// chance of about one in 2⁶⁴).
    static func digest(_ order: [OperationID]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for op in order {
            var value = UInt32(truncatingIfNeeded: op.index)
            for _ in 0..<4 {
                hash = (hash ^ UInt64(value & 0xFF)) &* 0x0100_0000_01b3
                value >>= 8
            }
        }
        return hash
    }

    private static func stateIndex(_ state: FinalState) -> Int {
        FinalState.allCases.firstIndex(of: state)!
    }

    // MARK: - Reading

    /// The kept start orders, most runs first (ties: the one seen first).
    package var ordersByRuns: [StartOrder] {
        orders.sorted { ($0.runs, -$0.firstRun) > ($1.runs, -$1.firstRun) }
    }

    /// Each fact that took more than one value across the runs: per
    /// operation in file order how it ended, then whether it started; per
    /// queue its peak; then the number of threads that ran operations.
    package var varyingFacts: [VaryingFact] {
        var facts: [VaryingFact] = []
        let states = FinalState.allCases
        for op in scenario.operations.indices {
            let id = OperationID(op)
            let tallies = states.indices.compactMap { s -> VaryingFact.Tally? in
                let n = Int(endings[op * states.count + s])
                return n > 0 ? VaryingFact.Tally(value: .state(states[s]), runs: n) : nil
            }
            if tallies.count > 1 { facts.append(VaryingFact(subject: .operation(id), kind: .finalState, tallies)) }
            let started = Int(startedRuns[op])
            if started > 0, started < runs {
                facts.append(
                    VaryingFact(
                        subject: .operation(id), kind: .started,
                        [.init(value: .flag(true), runs: started), .init(value: .flag(false), runs: runs - started)]))
            }
        }
        for q in scenario.queues.indices where peaks[q].count > 1 {
            facts.append(VaryingFact(subject: .queue(QueueID(q)), kind: .peak, Self.tallies(peaks[q])))
        }
        if threads.count > 1 { facts.append(VaryingFact(subject: .run, kind: .threads, Self.tallies(threads))) }
        return facts
    }

    private static func tallies(_ counts: [Int: Int]) -> [VaryingFact.Tally] {
        counts.map { VaryingFact.Tally(value: .count($0.key), runs: $0.value) }
    }
}

/// How many runs had something, and the first of them by number.
package struct RunNumbers: Sendable, Equatable {
    /// Run numbers kept, at most.
    package static let kept = 10

    package private(set) var count = 0
    /// The first `kept` run numbers (1-based), in order.
    package private(set) var first: [Int] = []

    package init() {}

    package mutating func add(_ run: Int) {
        count += 1
        if first.count < Self.kept { first.append(run) }
    }
}

/// One `expect` line over the runs.
package struct ExpectationTally: Sendable {
    package let expectation: Expectation
    package private(set) var held = 0
    package private(set) var failed = RunNumbers()
    /// What the judge said in the first run where it failed.
    package private(set) var firstFailure: String?

    init(expectation: Expectation) { self.expectation = expectation }

    mutating func add(_ result: ExpectationResult, run: Int) {
        if result.held {
            held += 1
        } else {
            failed.add(run)
            if firstFailure == nil { firstFailure = result.explanation }
        }
    }
}

/// A start order: the operations in the order they posted `isExecuting`
/// true (those that never started are not in it), and the runs it was
/// seen in.
package struct StartOrder: Sendable, Equatable {
    package var operations: [OperationID]
    package var runs: Int
    /// The first run (1-based) that started in this order.
    package var firstRun: Int

    package init(operations: [OperationID], runs: Int, firstRun: Int) {
        self.operations = operations
        self.runs = runs
        self.firstRun = firstRun
    }
}

/// A fact that differed between runs, with the runs per value, most runs
/// first (ties: the smaller value, or the state in `FinalState` order).
package struct VaryingFact: Sendable, Equatable {
    package enum Subject: Sendable, Equatable {
        case operation(OperationID)
        case queue(QueueID)
        /// The run as a whole.
        case run
    }

    package enum Kind: String, Sendable {
        /// How an operation ended (`FinalState`).
        case finalState
        /// Whether an operation started (posted `isExecuting` true).
        case started
        /// The most of a queue's operations executing at once.
        case peak
        /// How many threads ran the run's operations.
        case threads
    }

    package enum Value: Sendable, Hashable {
        case state(FinalState)
        case flag(Bool)
        case count(Int)
    }

    package struct Tally: Sendable, Equatable {
        package var value: Value
        package var runs: Int

        package init(value: Value, runs: Int) {
            self.value = value
            self.runs = runs
        }
    }

    package var subject: Subject
    package var kind: Kind
    package var tallies: [Tally]

    init(subject: Subject, kind: Kind, _ tallies: [Tally]) {
        self.subject = subject
        self.kind = kind
        self.tallies = tallies.sorted { a, b in
            a.runs != b.runs ? a.runs > b.runs : Self.rank(a.value) < Self.rank(b.value)
        }
    }

    private static func rank(_ value: Value) -> Int {
        switch value {
        case .state(let state): FinalState.allCases.firstIndex(of: state)!
        case .flag(let flag): flag ? 0 : 1
        case .count(let n): n
        }
    }
}

/// One run of `trace --repeat` as its events pass: the single trace's
/// judge, and facts about every operation (start order, how each ended,
/// its thread; the peaks) for the summary. No event is kept.
package struct RepeatRunReader: EventReader, Sendable {
    package private(set) var judge: ExpectationJudge
    package private(set) var facts: RunFacts

    package init(scenario: Scenario) {
        judge = ExpectationJudge(scenario: scenario)
        facts = RunFacts(scenario: scenario)
    }

    package mutating func read(_ batch: [LifecycleEvent]) {
        judge.read(batch)
        for event in batch { facts.record(event) }
    }
}
