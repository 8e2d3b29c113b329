import ScenarioKit

/// What a stall report needs from the stream before the stall, beyond its
/// stuck map: who suspended each queue last, and when; how far the run got
/// through the file's `at` lines; the wait the main thread is in.
///
/// A few words per queue, fed every event (`record`, which looks only at
/// actions and waits): `RunFacts`, the board and the recording's encoder
/// each keep one, so that the trace, the interface and a recording group a
/// stall by the same facts (`StallCause.group`). It is a function of the
/// stream's prefix, so a recording read back gives the same one.
public struct StallContext: Sendable, Hashable {
    /// The last suspend of a queue that the engine carried out: the action
    /// event's origin and its time (scenario seconds).
    public struct Suspension: Sendable, Hashable {
        public var origin: ActionOrigin
        public var time: Double

        public init(origin: ActionOrigin, time: Double) {
            self.origin = origin
            self.time = time
        }
    }

    /// Per queue (`Scenario.queues` order), its last suspend not ignored;
    /// nil when no action suspended it (it may start suspended).
    public private(set) var lastSuspension: [Suspension?]
    /// One past the highest `Scenario.actions` index performed: the engine
    /// performs `at` lines in that order, so those from here on are still
    /// to come.
    public private(set) var timedActionsDone = 0
    /// The wait the main thread is blocked in, from its `started` to its
    /// `returned`.
    public private(set) var mainThreadWait: Action?

    public init(queueCount: Int) {
        lastSuspension = Array(repeating: nil, count: queueCount)
    }

    public init(scenario: Scenario) {
        self.init(queueCount: scenario.queues.count)
    }

    public mutating func record(_ event: LifecycleEvent) {
        switch event.kind {
        case .action(let action, let origin, let ignored):
            if case .timed(let index) = origin { timedActionsDone = max(timedActionsDone, index + 1) }
            if ignored == nil, case .suspend(let q) = action, lastSuspension.indices.contains(q.index) {
                lastSuspension[q.index] = Suspension(origin: origin, time: event.time)
            }
        case .mainThreadWait(let action, .started):
            mainThreadWait = action
        case .mainThreadWait(_, .returned):
            mainThreadWait = nil
        case .operation, .queue, .dispatched, .block, .completion, .leftover, .stranded, .startCall, .caption, .stall,
            .end:
            break
        }
    }

    /// Whether `scenario.actions[index]` is still to come.
    public func isToCome(timedAction index: Int) -> Bool { index >= timedActionsDone }
}
