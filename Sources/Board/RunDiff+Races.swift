import RunEvents
import ScenarioKit

extension RunDiff {
    /// Two or more operations whose steps came in another order in the two
    /// runs, though nothing orders them: no dependency (through any path),
    /// no barrier of their queue and no serial queue between them, and
    /// their steps within the tolerance's floor of each other in each run.
    /// Which of them a thread announces first is the threads' race, not
    /// something the files or the engine decided.
    public struct Race: Sendable, Hashable {
        /// 0-based, among the steps of each run, where the race begins.
        public var index: Int
        /// The operations, in the order A's steps have them.
        public var operations: [String]
        /// When the first of them stepped in A, scenario seconds.
        public var time: Double

        public init(index: Int, operations: [String], time: Double) {
            self.index = index
            self.operations = operations
            self.time = time
        }
    }

    /// The steps of both runs compared in order, as `divergence` does,
    /// except that a step one run has a little later, behind steps of
    /// operations it races with, is taken as the same step (and the race
    /// kept): the first divergence found is one a race does not explain.
    ///
    /// Linear but for the races: at each one a window of the steps within
    /// the floor is looked through (at most `raceWindow` steps).
    static func aligned(_ a: RunSteps, _ b: RunSteps, floor: Double) -> (Divergence?, [Race]) {
        var stepsA = a.steps
        var stepsB = b.steps
        // Made at the first step that differs: runs that agree (the
        // interface compares again as its run goes) cost one pass.
        var lookup: (order: Ordering, timesA: [RunSteps.What: Double], timesB: [RunSteps.What: Double])?
        var races: [Race] = []
        var k = 0
        while k < min(stepsA.count, stepsB.count) {
            if stepsA[k].what == stepsB[k].what {
                k += 1
                continue
            }
            if lookup == nil { lookup = (Ordering(a.scenario, b.scenario), firstTimes(a.steps), firstTimes(b.steps)) }
            guard let (order, timesA, timesB) = lookup else { break }
            if let (j, others) = raceMove(stepsA[k], in: stepsB, from: k, times: timesA, floor: floor, order) {
                let name = stepsA[k].what.operation ?? ""
                races.append(Race(index: k, operations: [name] + others, time: stepsA[k].event.time))
                stepsB.replaceSubrange(k...j, with: [stepsB[j]] + stepsB[k..<j])
            } else if let (j, others) = raceMove(
                stepsB[k], in: stepsA, from: k, times: timesB, floor: floor, order)
            {
                let name = stepsB[k].what.operation ?? ""
                races.append(Race(index: k, operations: others + [name], time: stepsA[k].event.time))
                stepsA.replaceSubrange(k...j, with: [stepsA[j]] + stepsA[k..<j])
            } else {
                break
            }
            k += 1
        }
        return (divergence(stepsA, stepsB, from: k), races)
    }

    /// The most steps a race may put between a step and its place in the
    /// other run: a burst of starts on a pool of workers, not a run.
    static let raceWindow = 64

    /// Where `step` (of one run) comes in `other` from `start` on, if every
    /// step before it there is of an operation it races with; those
    /// operations' names.
    private static func raceMove(
        _ step: RunSteps.Step, in other: [RunSteps.Step], from start: Int, times: [RunSteps.What: Double],
        floor: Double, _ order: Ordering
    ) -> (Int, [String])? {
        guard let name = step.what.operation else { return nil }
        var others: [String] = []
        var j = start
        while j < other.count, j - start <= raceWindow {
            let candidate = other[j]
            if candidate.what == step.what {
                let t = candidate.event.time
                guard other[start..<j].allSatisfy({ abs($0.event.time - t) <= floor }) else { return nil }
                return (j, others)
            }
            guard let otherName = candidate.what.operation, otherName != name,
                let time = times[candidate.what], abs(time - step.event.time) <= floor,
                !order.orders(name, otherName)
            else { return nil }
            if !others.contains(otherName) { others.append(otherName) }
            j += 1
        }
        return nil
    }

    /// When each operation's step first came in a run.
    private static func firstTimes(_ steps: [RunSteps.Step]) -> [RunSteps.What: Double] {
        var times: [RunSteps.What: Double] = [:]
        for step in steps where step.what.operation != nil && times[step.what] == nil {
            times[step.what] = step.event.time
        }
        return times
    }

    /// Whether the files order two operations, by name: a dependency
    /// through any path, a barrier of their queue (`BarrierRule`), or one
    /// serial queue (cap 1, or the main queue) they are both on, in either
    /// file. An operation in one file only is ordered with everything: its
    /// step is a difference, never a race.
    struct Ordering {
        let scenarios: [(scenario: Scenario, ids: [String: OperationID])]

        init(_ a: Scenario, _ b: Scenario) {
            scenarios = [a, b].map { scenario in
                var ids: [String: OperationID] = [:]
                ids.reserveCapacity(scenario.operations.count)
                for (i, op) in scenario.operations.enumerated() { ids[op.name] = OperationID(i) }
                return (scenario, ids)
            }
        }

        func orders(_ x: String, _ y: String) -> Bool {
            scenarios.contains { scenario, ids in
                guard let idX = ids[x], let idY = ids[y] else { return true }
                let (opX, opY) = (scenario[operation: idX], scenario[operation: idY])
                if opX.queue == opY.queue {
                    if opX.isBarrier || opY.isBarrier { return true }
                    if scenario[queue: opX.queue].isSerial { return true }
                }
                return scenario.dependencyPath(from: idX, to: idY) != nil
                    || scenario.dependencyPath(from: idY, to: idX) != nil
            }
        }
    }
}
