import ScenarioKit

/// "Why is it not running", followed through the waits to their root: an
/// operation waits for a dependency, which waits for another, … which is
/// not running for a reason of its own (or runs).
public struct NotRunningChain: Sendable, Hashable {
    /// The operations passed through, from the one asked about: each
    /// waits for the next (the first of its unfinished prerequisites that
    /// is itself held back, else the first of them).
    public var links: [OperationID]
    /// What each link waits for (all its unfinished prerequisites, file
    /// order), one fewer than `links`.
    public var waits: [[OperationID]]
    /// Why the last link is not running; empty when it runs, or when it
    /// is ready and nothing holds it back (its queue dispatches it next).
    public var rootReasons: [NotRunningReason]
    /// The waits came back to an operation already in `links`.
    public var cycle: Bool

    /// The operation the chain ends at.
    public var root: OperationID { links[links.count - 1] }
}

extension BoardState {
    /// The chain of waits from `op` to its root, as `whyNotRunning` gives
    /// each step; nil when `op` is not waiting for a prerequisite. Stops at
    /// an operation already met (`cycle`), so it is at most as long as the
    /// scenario has operations.
    public func notRunningChain(_ op: OperationID) -> NotRunningChain? {
        guard scenario.contains(op) else { return nil }
        var reasons = whyNotRunning(op)
        guard reasons.count == 1, case .waitingFor(let first) = reasons[0], !first.isEmpty else { return nil }
        var chain = NotRunningChain(links: [op], waits: [], rootReasons: [], cycle: false)
        var seen: Set<OperationID> = [op]
        var ids = first
        while true {
            let held = ids.lazy.map { ($0, self.whyNotRunning($0)) }.first { !$0.1.isEmpty }
            let next = held?.0 ?? ids[0]
            chain.waits.append(ids)
            guard seen.insert(next).inserted else {
                chain.cycle = true
                chain.waits.removeLast()
                break
            }
            chain.links.append(next)
            reasons = held?.1 ?? whyNotRunning(next)
            guard reasons.count == 1, case .waitingFor(let further) = reasons[0], !further.isEmpty else { break }
            ids = further
        }
        chain.rootReasons = chain.cycle ? [] : reasons
        return chain
    }
}
