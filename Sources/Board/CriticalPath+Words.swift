import RunEvents
import ScenarioKit
import TextKit

/// The chain in words, one line per link, as `opscope why` prints it.
extension CriticalPath {
    /// `  0.104s → 0.255s   151ms  decode3 ran on cpu, …`, in time order.
    public func lines(in timeline: RunTimeline) -> [String] {
        // Asked once, not per link: a chain is as long as the run.
        let byHand = timeline.scenario.startedByHand
        return steps.map { line($0, timeline: timeline, byHand: byHand) }
    }

    /// One link's line (`lines(in:)`); `byHand`: `scenario.startedByHand`.
    public func line(_ step: Step, timeline: RunTimeline, byHand: Set<OperationID>) -> String {
        let range = "\(Spelling.seconds(step.from)) → \(Spelling.seconds(step.to))"
        let cost = Self.costText(step.cost)
        let words = Self.sentence(step.link, timeline: timeline, in: timeline.scenario, byHand: byHand)
        return "  \(range)  \(cost.leftPadded(to: 6))  \(words)"
    }

    /// The line under the chain: the links add up to the start time.
    public func total() -> String {
        let sum = steps.reduce(0) { $0 + $1.cost }
        let from = steps.first?.from ?? started
        let span = from > 0.0005 ? " after \(Spelling.seconds(from))" : ""
        return "  the links add up to \(Spelling.seconds(sum))\(span): \(Spelling.seconds(started)), when it started"
    }

    static func costText(_ seconds: Double) -> String {
        let ms = seconds * 1000
        if ms < 0.5 { return "0ms" }
        if ms < 10_000 { return "\(Int(ms.rounded()))ms" }
        return Spelling.seconds(seconds)
    }

    static func sentence(_ link: Link, timeline: RunTimeline, in scenario: Scenario, byHand: Set<OperationID>)
        -> String
    {
        let name = scenario.opName
        func queueOf(_ op: OperationID) -> String { scenario.queueName(scenario[operation: op].queue) }
        /// An asynchronous operation's run is from `start()` to its `isFinished`.
        func ran(_ op: OperationID) -> String {
            scenario[operation: op].body.isAsync ? "ran (start() to isFinished)" : "ran"
        }
        switch link {
        case .ran(let op) where byHand.contains(op):
            let verb = ran(op)
            return "\(name(op)) \(verb), started by hand on the main thread, and what follows waited for it"
        case .ran(let op):
            let verb = ran(op)
            return "\(name(op)) \(verb) on \(queueOf(op)), and what follows waited for it"
        case .waited(let op, .startedByHand(let origin)):
            let line = origin.map { " for " + StallCause.originText($0, in: scenario) } ?? ""
            return "the main thread called \(name(op)).start() by hand\(line) as soon as it was free: \(name(op)) is "
                + "in no queue"
        case .waited(let op, .prerequisite(let other)):
            let isDependency = scenario[operation: op].dependencies.contains(other)
            let what =
                isDependency
                ? "its dependency \(name(other)) finished"
                : "\(name(other)), which the barrier rule of \(queueOf(op)) orders before it, finished"
            return "\(name(op)) turned ready when \(what), and \(queueOf(op)) dispatched it"
        case .waited(let op, .slot(let other)):
            return "\(name(other)) stopped executing and freed a slot of \(queueOf(op)): \(name(op)) was dispatched"
        case .waited(let op, .resumed(let origin)):
            return "\(queueOf(op)) was resumed\(by(origin, scenario)): \(name(op)) was dispatched"
        case .waited(let op, .capRaised(let cap, let origin)):
            return
                "\(Spelling.possessive(queueOf(op))) cap became \(cap)\(by(origin, scenario)): \(name(op)) was dispatched"
        case .waited(let op, .added(nil)):
            return "\(name(op)) was added to \(queueOf(op)) as the run began, and dispatched"
        case .waited(let op, .added(let origin)):
            return "\(name(op)) was added to \(queueOf(op))\(by(origin, scenario)) and dispatched"
        case .waited(let op, .thread):
            let thread = scenario[queue: scenario[operation: op].queue].isMain ? "the main thread" : "a worker thread"
            return "\(name(op)) was dispatched, then waited for \(thread) to start it"
        case .waited(let op, .threadFreed(let holder, let thread)):
            let at = timeline[op].dispatched.map { " at \(Spelling.seconds($0.time))" } ?? ""
            return "\(name(op)), dispatched\(at), started on thread \(thread) when \(name(holder)) stopped executing "
                + "there"
        case .waited(let op, .unexplained):
            return "\(name(op)) waited; the run's events do not say what let it go"
        case .timedAction(let index):
            guard scenario.actions.indices.contains(index) else { return "the run came to an 'at' line" }
            let timed = scenario.actions[index]
            return "the run came to " + StallCause.originText(.timed(index), in: scenario)
                + (timed.time.seconds > 0 ? "" : " at its start")
        case .finishedWithoutRunning(let op):
            let by = byHand.contains(op) ? "by hand" : "by \(queueOf(op))"
            return "\(name(op)), cancelled before it started, was started \(by) and finished without running"
        case .completionBlock(let op):
            return "\(name(op)) finished and its completion block ran the action"
        }
    }

    private static func by(_ origin: ActionOrigin?, _ scenario: Scenario) -> String {
        guard let origin else { return "" }
        return " by " + StallCause.originText(origin, in: scenario)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
