import RunEvents
import ScenarioKit

extension BoardState {
    /// What is stuck at this moment of the run: the stall it waits in, or
    /// its stalled end; nil when nothing is.
    public var stuckNow: [OperationID: StuckReason]? {
        if let stall { return stall }
        if case .stalled(let stuck)? = outcome { return stuck }
        return nil
    }

    /// The stuck operations grouped by root cause (`StallCause.group`), from
    /// the stall and who suspended each queue; nil when nothing is stuck.
    public var stallCauses: [StallCause]? {
        stuckNow.map { StallCause.group($0, in: scenario, context: stallContext) }
    }
}
