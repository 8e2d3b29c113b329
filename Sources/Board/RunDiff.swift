import RunEvents
import ScenarioKit

/// Two runs compared (`opscope diff`; the interface, the run before `r`
/// against the one after): the first step where they part, and per
/// operation, by name, what differs — its final state, whether and when it
/// started and finished, whether it ran on the main thread, whether it is
/// in both files at all.
///
/// Order and states are compared exactly: the steps (`RunSteps`) must be
/// the same, one for one, in the same order. Times are not: real threads
/// wake a few milliseconds sooner or later in every run, and the delay
/// builds up along a run, so a time differs only beyond the `Tolerance`.
/// A difference of time alone leaves the runs agreeing.
///
/// Pure and linear: one pass over each run's steps and one over the
/// operations of the two files.
public struct RunDiff: Sendable {
    /// How far apart two times of the same moment may be and still count
    /// as the same: more than `max(floor, relative × the later of the
    /// two)` apart, they differ. Scenario seconds.
    public struct Tolerance: Sendable, Hashable {
        public var floor: Double
        public var relative: Double

        /// 10 ms, or 10 % of the time: what two runs of the library at
        /// speed 1 stay within (the start of a run, when the pool makes its
        /// threads, by up to 9 ms; later, by up to about 1 % of the time).
        public static let standard = Tolerance(floor: 0.010, relative: 0.10)

        public init(floor: Double, relative: Double) {
            self.floor = floor
            self.relative = relative
        }

        /// Runs made at `speed` (scenario seconds per real second): the
        /// threads' delays are real time, so the floor grows with it.
        public func atSpeed(_ speed: Double) -> Tolerance {
            Tolerance(floor: floor * max(1, speed), relative: relative)
        }

        public func differs(_ a: Double, _ b: Double) -> Bool {
            abs(a - b) > max(floor, relative * max(a, b))
        }
    }

    /// Which run.
    public enum Side: String, Sendable, Hashable {
        case a
        case b
    }

    /// A step and its place (0-based) among its run's steps.
    public struct Placed: Sendable, Hashable {
        public var index: Int
        public var step: RunSteps.Step
    }

    /// Where the runs' steps first part: the same steps before `index`,
    /// and there `a`'s and `b`'s step (nil in a run that had no more).
    public struct Divergence: Sendable, Hashable {
        /// 0-based, among the steps of each run.
        public var index: Int
        public var a: RunSteps.Step?
        public var b: RunSteps.Step?
        /// Where A's step comes later in B, if it does; and B's in A.
        public var aLaterInB: Placed?
        public var bLaterInA: Placed?

        /// Each run has the other's step right after its own: the same two
        /// steps, in the other order (often two threads' announcements a
        /// few milliseconds apart).
        public var isSwap: Bool {
            aLaterInB?.index == index + 1 && bLaterInA?.index == index + 1
        }
    }

    /// How an operation ended, as a diff says it.
    public enum Ending: String, Sendable, Hashable {
        case finished
        /// Started, then cancelled.
        case cancelled
        /// Cancelled before it started.
        case skipped
        /// Not finished when the stream stopped (stuck, or a recording cut
        /// short).
        case unfinished

        init(_ state: FinalState) {
            switch state {
            case .finished: self = .finished
            case .cancelled: self = .cancelled
            case .skipped: self = .skipped
            case .stuck: self = .unfinished
            }
        }
    }

    /// One thing that differs about one operation.
    public struct OperationDifference: Sendable, Hashable {
        public enum Aspect: Sendable, Hashable {
            /// The operation is in this run's file only.
            case onlyIn(Side)
            case ending(Ending, Ending)
            /// When it started in each run; nil where it never did.
            case start(Double?, Double?)
            case finish(Double?, Double?)
            /// Where it started in each run (both started).
            case thread(RunSteps.ThreadPlace?, RunSteps.ThreadPlace?)
        }

        public var operation: String
        public var aspect: Aspect

        public init(operation: String, aspect: Aspect) {
            self.operation = operation
            self.aspect = aspect
        }
    }

    public let a: RunSteps
    public let b: RunSteps
    public let tolerance: Tolerance
    /// What the two files say differently (`ScenarioChanges`: a cap, an
    /// action, a dependency), the first thing a diff says.
    package let files: ScenarioChanges
    /// The first step where the runs part by something other than a race
    /// among independent operations (`races`); nil when every step is the
    /// same in both, or the same but for races.
    public let divergence: Divergence?
    /// Steps the runs have in another order only because threads raced:
    /// said after the divergence, as races.
    public let races: [Race]
    /// Per operation, in A's file order and then B's for those only in B:
    /// in both files, then ending, start, finish, thread.
    public let operations: [OperationDifference]

    /// `files`, when the caller has them (the interface compares its two
    /// files once, not at each frame), else compared here.
    package init(_ a: RunSteps, _ b: RunSteps, tolerance: Tolerance = .standard, files: ScenarioChanges? = nil) {
        self.a = a
        self.b = b
        self.tolerance = tolerance
        self.files = files ?? ScenarioChanges(from: a.scenario, to: b.scenario)
        (divergence, races) = Self.aligned(a, b, floor: tolerance.floor)
        operations = Self.operationDifferences(a, b, tolerance)
    }

    /// The runs of two scenarios (or twice the same), from their events.
    public init(_ a: RunSteps, _ b: RunSteps, tolerance: Tolerance = .standard) {
        self.init(a, b, tolerance: tolerance, files: nil)
    }

    public init(
        a: Scenario, _ aEvents: some Sequence<LifecycleEvent>, b: Scenario, _ bEvents: some Sequence<LifecycleEvent>,
        tolerance: Tolerance = .standard
    ) {
        self.init(RunSteps(scenario: a, events: aEvents), RunSteps(scenario: b, events: bEvents), tolerance: tolerance)
    }

    /// The same steps in the same order, the same operations, each ending
    /// the same way. Times may differ.
    public var agrees: Bool {
        divergence == nil && !operations.contains { $0.decides }
    }

    // MARK: - Steps

    /// The first step from `start` on where `a` and `b` part.
    static func divergence(_ a: [RunSteps.Step], _ b: [RunSteps.Step], from start: Int = 0) -> Divergence? {
        let common = min(a.count, b.count)
        var k = start
        while k < common, a[k].what == b[k].what { k += 1 }
        guard k < common || a.count != b.count else { return nil }
        let stepA = a.indices.contains(k) ? a[k] : nil
        let stepB = b.indices.contains(k) ? b[k] : nil
        // The steps before k are the same in both, so the first of the same
        // kind after them is the same occurrence.
        return Divergence(
            index: k, a: stepA, b: stepB,
            aLaterInB: stepA.flatMap { first($0.what, in: b, from: k + 1) },
            bLaterInA: stepB.flatMap { first($0.what, in: a, from: k + 1) })
    }

    private static func first(_ what: RunSteps.What, in steps: [RunSteps.Step], from start: Int) -> Placed? {
        guard start < steps.count else { return nil }
        return steps[start...].firstIndex { $0.what == what }.map { Placed(index: $0, step: steps[$0]) }
    }

    // MARK: - Operations

    private static func operationDifferences(_ a: RunSteps, _ b: RunSteps, _ tolerance: Tolerance)
        -> [OperationDifference]
    {
        var inB: [String: OperationID] = [:]
        inB.reserveCapacity(b.scenario.operations.count)
        for (i, spec) in b.scenario.operations.enumerated() { inB[spec.name] = OperationID(i) }
        var differences: [OperationDifference] = []
        var matched = Array(repeating: false, count: b.scenario.operations.count)
        for (i, spec) in a.scenario.operations.enumerated() {
            guard let other = inB[spec.name] else {
                differences.append(OperationDifference(operation: spec.name, aspect: .onlyIn(.a)))
                continue
            }
            matched[other.index] = true
            compare(spec.name, a.facts, OperationID(i), b.facts, other, tolerance, into: &differences)
        }
        for (i, spec) in b.scenario.operations.enumerated() where !matched[i] {
            differences.append(OperationDifference(operation: spec.name, aspect: .onlyIn(.b)))
        }
        return differences
    }

    private static func compare(
        _ name: String, _ a: RunFacts, _ opA: OperationID, _ b: RunFacts, _ opB: OperationID, _ tolerance: Tolerance,
        into differences: inout [OperationDifference]
    ) {
        func add(_ aspect: OperationDifference.Aspect) {
            differences.append(OperationDifference(operation: name, aspect: aspect))
        }
        let endingA = Ending(a.finalState(of: opA))
        let endingB = Ending(b.finalState(of: opB))
        if endingA != endingB { add(.ending(endingA, endingB)) }
        let (factsA, factsB) = (a[opA], b[opB])
        if times(factsA.started?.time, factsB.started?.time, differ: tolerance) {
            add(.start(factsA.started?.time, factsB.started?.time))
        }
        if times(factsA.finished?.time, factsB.finished?.time, differ: tolerance) {
            add(.finish(factsA.finished?.time, factsB.finished?.time))
        }
        if factsA.started != nil, factsB.started != nil {
            let placeA = factsA.thread.map { $0.isMain ? RunSteps.ThreadPlace.main : .worker }
            let placeB = factsB.thread.map { $0.isMain ? RunSteps.ThreadPlace.main : .worker }
            if placeA != placeB { add(.thread(placeA, placeB)) }
        }
    }

    private static func times(_ a: Double?, _ b: Double?, differ tolerance: Tolerance) -> Bool {
        switch (a, b) {
        case (nil, nil): false
        case (let a?, let b?): tolerance.differs(a, b)
        default: true
        }
    }
}

extension RunDiff.OperationDifference {
    /// Whether it makes the runs differ: an operation in one file only, or
    /// ending another way. (A time differs by noise; a start or a finish
    /// in one run only, or a start on another thread, is a step that
    /// differs, and that is the divergence's to say.)
    public var decides: Bool {
        switch aspect {
        case .onlyIn, .ending: true
        case .start, .finish, .thread: false
        }
    }
}
