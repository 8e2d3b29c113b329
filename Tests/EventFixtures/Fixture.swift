/// Shared by the Board and Screen tests: scenarios declared by name and
/// hand-made event streams (`Script`), so a test reads like the run it
/// stands for.
import FoundationRules
import RunEvents
import ScenarioKit

/// An operation declared by name in a test scenario.
public struct OpDecl: Sendable {
    public var name: String
    public var queue: String
    public var body: OperationBody
    public var after: [String]
    public var priority: PriorityLevel?
    public var qos: QoSLevel?
}

public func op(
    _ name: String, on queue: String, work: Double = 1, after: [String] = [],
    priority: PriorityLevel? = nil, qos: QoSLevel? = nil, body: OperationBody? = nil
) -> OpDecl {
    OpDecl(
        name: name, queue: queue, body: body ?? .work(.scenarioSeconds(work)), after: after,
        priority: priority, qos: qos)
}

/// A scenario built from names, the way a test reads best. Claims and
/// actions are made by closures that get the finished scenario's lookup.
public func makeScenario(
    queues: [QueueSpec], ops decls: [OpDecl], addedLater: [String] = [],
    expect claims: [(String, (Names) -> Claim)] = []
) -> Scenario {
    let queueIndex = { (name: String) in QueueID(queues.firstIndex { $0.name == name }!) }
    let opIndex = { (name: String) in OperationID(decls.firstIndex { $0.name == name }!) }
    let operations = decls.map { d in
        OperationSpec(
            name: d.name, queue: queueIndex(d.queue), body: d.body,
            dependencies: DependencyList(d.after.map(opIndex)), priority: d.priority, qos: d.qos)
    }
    var scenario = Scenario(queues: queues, operations: operations)
    scenario.actions = addedLater.map { TimedAction(time: .seconds(1), action: .add(opIndex($0))) }
    let names = Names(scenario: scenario)
    scenario.expectations = claims.map { Expectation(claim: $0.1(names), text: $0.0) }
    return scenario
}

/// Name → index lookup for a test scenario.
public struct Names: Sendable {
    public let scenario: Scenario
    public init(scenario: Scenario) { self.scenario = scenario }
    public func callAsFunction(_ name: String) -> OperationID { scenario.operationID(named: name)! }
    public func q(_ name: String) -> QueueID { scenario.queueID(named: name)! }
}

/// Writes event streams concisely: it stamps seq and time, keeps each
/// operation's flags so `old` values are right, and names things by name.
public struct Script: Sendable {
    public let scenario: Scenario
    public private(set) var events: [LifecycleEvent] = []
    /// Scenario seconds stamped on the next events.
    public var time: Double = 0
    public var nextSeq = 1
    private var flags: [String: [OperationKey: Bool]] = [:]
    private var dispatched: Set<String> = []

    public init(_ scenario: Scenario) { self.scenario = scenario }

    public func id(_ name: String) -> OperationID { scenario.operationID(named: name)! }
    public func qid(_ name: String) -> QueueID { scenario.queueID(named: name)! }

    public mutating func emit(_ kind: LifecycleEvent.Kind, thread: ThreadTag? = nil) {
        events.append(LifecycleEvent(seq: nextSeq, time: time, kind: kind, thread: thread))
        nextSeq += 1
    }

    /// Sets the time, then emits.
    public mutating func at(_ t: Double) { time = t }

    /// One operation key change; `old` is the flag as the script knows it.
    public mutating func set(_ name: String, _ key: OperationKey, _ value: Bool) {
        let old = flags[name, default: [:]][key] ?? false
        flags[name, default: [:]][key] = value
        emit(.operation(id(name), key, old: .bool(old), new: .bool(value)))
    }

    /// The initial notification: the operation was added to its queue.
    public mutating func add(_ name: String, ready: Bool = true) {
        flags[name, default: [:]][.isReady] = ready
        emit(.operation(id(name), .isReady, old: nil, new: .bool(ready)))
    }

    public mutating func ready(_ name: String) { set(name, .isReady, true) }

    /// Its queue dispatched it (once: a second call does nothing).
    public mutating func dispatch(_ name: String) {
        guard dispatched.insert(name).inserted else { return }
        emit(.dispatched(id(name)))
    }

    /// Dispatched (unless it was already), then isExecuting true, as the
    /// engine announces a start.
    public mutating func start(_ name: String) {
        dispatch(name)
        set(name, .isExecuting, true)
    }

    /// isExecuting true, announced from `thread` (as the engine does).
    public mutating func start(_ name: String, thread: Int) {
        dispatch(name)
        flags[name, default: [:]][.isExecuting] = true
        emit(.operation(id(name), .isExecuting, old: .bool(false), new: .bool(true)), thread: ThreadTag(thread))
    }
    public mutating func cancel(_ name: String) { set(name, .isCancelled, true) }

    /// isExecuting false (when it was executing), then isFinished true.
    public mutating func finish(_ name: String) {
        if flags[name]?[.isExecuting] == true { set(name, .isExecuting, false) }
        set(name, .isFinished, true)
    }

    /// Cancelled before it started: cancel, ready at once, dispatched (its
    /// `start()` finishes it), finish.
    public mutating func skip(_ name: String) {
        cancel(name)
        if flags[name]?[.isReady] != true { ready(name) }
        if !scenario[operation: id(name)].isBarrier { dispatch(name) }
        set(name, .isFinished, true)
    }

    public mutating func run(_ name: String, from start: Double, to end: Double) {
        at(start)
        self.start(name)
        at(end)
        finish(name)
    }

    public mutating func priority(_ name: String, _ p: PriorityLevel, old: PriorityLevel = .normal) {
        emit(.operation(id(name), .queuePriority, old: .priority(old), new: .priority(p)))
    }

    public mutating func cap(_ queue: String, _ value: Int, old: Int = -1) {
        emit(.queue(qid(queue), .maxConcurrentOperationCount, old: .int(old), new: .int(value)))
    }

    public mutating func suspended(_ queue: String, _ value: Bool) {
        emit(.queue(qid(queue), .isSuspended, old: .bool(!value), new: .bool(value)))
    }

    public mutating func count(_ queue: String, _ value: Int, old: Int = 0) {
        emit(.queue(qid(queue), .operationCount, old: .int(old), new: .int(value)))
    }

    public mutating func block(_ name: String, _ index: Int, _ phase: BlockPhase, thread: Int = 1) {
        emit(.block(id(name), index: index, phase: phase, thread: ThreadTag(thread)))
    }

    public mutating func completion(_ name: String, thread: Int = 2) {
        emit(.completion(id(name), thread: ThreadTag(thread)))
    }

    public mutating func end(_ outcome: RunOutcome = .completed) { emit(.end(outcome)) }
}
