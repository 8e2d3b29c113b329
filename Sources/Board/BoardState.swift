import FoundationRules
import RunEvents
import ScenarioKit

/// Everything the interface draws, reduced from the event stream.
///
/// A pure value: `apply` does no I/O, reads no clock and takes no lock;
/// time comes from the events (scenario seconds). Replaying the same
/// events into `BoardState(scenario:)` gives an equal board. Events that
/// name unknown operations or queues are ignored rather than trapping.
public struct BoardState: Sendable, Hashable {
    public let scenario: Scenario
    /// One card per operation and barrier, indexed like `Scenario.operations`.
    public private(set) var cards: [OperationCard]
    /// One row per queue, indexed like `Scenario.queues`.
    public private(set) var queues: [QueueRow]
    /// Scenario seconds of the last event applied (0 before any).
    public private(set) var lastEventTime: Double = 0
    /// `seq` of the last event applied (0 before any).
    public private(set) var lastSeq = 0
    /// How the run ended; nil while it runs.
    public private(set) var outcome: RunOutcome?
    /// What is stuck and why, while a run that waits for the user after a
    /// stall (`StallPolicy.waitsForUser`) waits: from its `.stall` event to
    /// the next event that is not an ignored action (the engine then looks
    /// again, and announces the stall again if nothing can progress).
    public private(set) var stall: [OperationID: StuckReason]?
    /// The wait the main thread is blocked in (`wait`, `wait-all`), from
    /// its `started` to its `returned`: while it lasts the main queue
    /// starts nothing.
    public private(set) var mainThreadWait: MainThreadWait?
    /// Who suspended each queue last and the `at` lines performed: what a
    /// stall's causes need beyond `stall` (`StallCause.group`).
    public private(set) var stallContext: StallContext
    /// Every action so far with its origin: the queues' histories, and who
    /// cancelled each operation (`OperationCard.cancelledBy`).
    public private(set) var actions: ActionLog
    /// Operations that name each operation in `after`, in file order.
    private let dependentsIndex: [[OperationID]]
    /// Per queue, its operations and its barriers, in file order.
    let membersOfQueue: [[OperationID]]
    let barriersOfQueue: [[OperationID]]
    /// What its frames ask again and again, kept while it does not change.
    let memo = BoardMemo()

    public init(scenario: Scenario) {
        self.scenario = scenario
        let byHand = scenario.startedByHand
        cards = scenario.operations.enumerated().map {
            OperationCard(id: OperationID($0), spec: $1, startedByHand: byHand.contains(OperationID($0)))
        }
        queues = scenario.queues.enumerated().map { QueueRow(id: QueueID($0), spec: $1) }
        stallContext = StallContext(scenario: scenario)
        actions = ActionLog(queueCount: scenario.queues.count)
        var dependents = Array(repeating: [OperationID](), count: scenario.operations.count)
        for (i, spec) in scenario.operations.enumerated() {
            for dep in spec.dependencies where scenario.contains(dep) {
                dependents[dep.index].append(OperationID(i))
            }
        }
        dependentsIndex = dependents
        var members = Array(repeating: [OperationID](), count: scenario.queues.count)
        var barriers = Array(repeating: [OperationID](), count: scenario.queues.count)
        for (i, spec) in scenario.operations.enumerated() where members.indices.contains(spec.queue.index) {
            // One started by hand is in no queue.
            if byHand.contains(OperationID(i)) { continue }
            members[spec.queue.index].append(OperationID(i))
            if spec.isBarrier { barriers[spec.queue.index].append(OperationID(i)) }
        }
        membersOfQueue = members
        barriersOfQueue = barriers
    }

    /// A board with `events` applied in order (a replay of a log).
    public init(scenario: Scenario, replaying events: [LifecycleEvent]) {
        self.init(scenario: scenario)
        for event in events { apply(event) }
    }

    public subscript(operation id: OperationID) -> OperationCard { cards[id.index] }
    public subscript(queue id: QueueID) -> QueueRow { queues[id.index] }

    /// The operations that depend on `op`, in file order.
    public func dependents(of op: OperationID) -> [OperationID] {
        dependentsIndex.indices.contains(op.index) ? dependentsIndex[op.index] : []
    }

    public mutating func apply(_ event: LifecycleEvent) {
        lastEventTime = event.time
        lastSeq = event.seq
        switch event.kind {
        case .stall, .caption, .action(_, _, ignored: _?):
            break
        default:
            stall = nil
        }
        switch event.kind {
        case .operation(let op, let key, let old, let new):
            guard scenario.contains(op) else { return }
            applyOperation(op, key, initial: old == nil, new, event)
        case .queue(let q, let key, _, let new):
            guard scenario.contains(q) else { return }
            applyQueue(q, key, new)
        case .dispatched(let op):
            guard scenario.contains(op), cards[op.index].dispatchedAt == nil else { return }
            var card = cards[op.index]
            card.dispatchedAt = event.time
            settleWaiting(card, was: false)
            cards[op.index] = card
        case .block(let op, _, let phase, let thread):
            guard scenario.contains(op) else { return }
            cards[op.index].thread = thread
            if phase == .started {
                cards[op.index].blocksStarted += 1
                cards[op.index].currentBlockStartedAt = event.time
            } else {
                cards[op.index].blocksReturned += 1
                cards[op.index].currentBlockStartedAt = nil
            }
        case .completion(let op, let thread):
            guard scenario.contains(op) else { return }
            cards[op.index].completionRan = true
            cards[op.index].completionThread = thread
        case .stranded(let op):
            guard scenario.contains(op), !cards[op.index].stranded else { return }
            var card = cards[op.index]
            let wasWaiting = card.isWaitingForThread
            card.stranded = true
            settleWaiting(card, was: wasWaiting)
            if !card.startedByHand { queues[card.queue.index].stranded += 1 }
            card.phase = card.derivedPhase
            card.phaseSeq = event.seq
            cards[op.index] = card
        case .leftover(let op, let phase):
            guard scenario.contains(op) else { return }
            cards[op.index].leftoverRunning = phase == .started
            if phase == .returned { cards[op.index].leftoverEndedAt = event.time }
        case .mainThreadWait(let action, .started):
            mainThreadWait = MainThreadWait(action: action, since: event.time, seq: event.seq)
            stallContext.record(event)
        case .mainThreadWait(_, .returned):
            mainThreadWait = nil
            stallContext.record(event)
        case .startCall:
            // The operation's own flags say what the call did.
            break
        case .action:
            stallContext.record(event)
            actions.record(event)
        case .caption:
            break
        case .stall(let stuck):
            stall = stuck
        case .end(let result):
            if outcome == nil { outcome = result }
        }
    }

    private mutating func applyOperation(
        _ op: OperationID, _ key: OperationKey, initial: Bool, _ new: KeyValue,
        _ event: LifecycleEvent
    ) {
        var card = cards[op.index]
        let wasWaiting = card.isWaitingForThread
        if initial && key == .isReady && card.addedSeq == nil {
            card.addedSeq = event.seq
            card.addedAt = event.time
            card.bucketSeq = event.seq
            settlePriority(&card)
        }
        let q = card.queue.index
        // Started by hand, it is in no queue: it counts in none.
        let counts = !card.startedByHand
        switch (key, new) {
        case (.isReady, .bool(let b)):
            card.isReady = b
        case (.isExecuting, .bool(let b)):
            if let thread = event.thread { card.thread = thread }
            if b && !card.isExecuting {
                card.startedAt = card.startedAt ?? event.time
                if counts {
                    queues[q].executing += 1
                    queues[q].peak = max(queues[q].peak, queues[q].executing)
                }
            } else if !b && card.isExecuting && counts {
                queues[q].executing -= 1
            }
            card.isExecuting = b
        case (.isFinished, .bool(let b)):
            if b && !card.isFinished {
                if card.isExecuting && counts { queues[q].executing -= 1 }
                card.isExecuting = false
                card.finishedAt = event.time
                card.currentBlockStartedAt = nil
            }
            card.isFinished = b
        case (.isCancelled, .bool(let b)):
            if b && card.isExecuting { card.cancelRequestedWhileExecuting = true }
            if b && !card.isCancelled {
                card.cancelledSeq = event.seq
                card.cancelledBy = actions.cancelCause(of: op, queue: card.queue, addedSeq: card.addedSeq)
            }
            card.isCancelled = b
        case (.queuePriority, .priority(let p)):
            changePriority(&card, to: p, seq: event.seq)
        default:
            break
        }
        settleWaiting(card, was: wasWaiting)
        let phase = card.derivedPhase
        if phase != card.phase {
            card.phase = phase
            card.phaseSeq = event.seq
        }
        cards[op.index] = card
    }

    /// Settles the bucket at the add (`PriorityRule.filing`, with the
    /// queue's limit at that moment).
    private func settlePriority(_ card: inout OperationCard) {
        let spec = scenario[operation: card.id]
        let filing = PriorityRule.filing(
            explicit: card.queuePriority, qos: spec.qos, limitAtAdd: queues[card.queue.index].limit)
        card.effectivePriority = filing.level
        card.prioritySource = filing.source
    }

    /// A priority change (`PriorityRule.change`): out of its queue only
    /// remembered; in it, moved to the end of the new bucket, or left where
    /// it is (lost for the order) when it is not filed where the change
    /// looks. Once dispatched it is in no bucket.
    private func changePriority(_ card: inout OperationCard, to p: PriorityLevel, seq: Int) {
        let place: PriorityRule.Place
        if card.addedSeq == nil || card.isFinished {
            place = .outsideQueue
        } else {
            let waits = card.dispatchedAt == nil && card.startedAt == nil
            place = .inQueue(filedUnder: waits ? card.effectivePriority : nil)
        }
        let qos = scenario[operation: card.id].qos
        switch PriorityRule.change(to: p, explicit: card.queuePriority, qos: qos, place: place) {
        case .nothing:
            return
        case .remembered:
            card.queuePriority = p
        case .stays:
            card.queuePriority = p
            if case .inQueue(filedUnder: .some) = place { card.priorityChangesLost = true }
        case .moved:
            card.queuePriority = p
            card.priorityChangesLost = false
            card.effectivePriority = p
            card.prioritySource = .explicit
            card.bucketSeq = seq
        }
    }

    /// Keeps its queue's count of operations waiting for a thread in step
    /// with the card (`was`: whether it waited before the event).
    private mutating func settleWaiting(_ card: OperationCard, was: Bool) {
        let now = card.isWaitingForThread
        guard now != was else { return }
        queues[card.queue.index].waitingForThread += now ? 1 : -1
    }

    private mutating func applyQueue(_ q: QueueID, _ key: QueueKey, _ new: KeyValue) {
        switch (key, new) {
        case (.isSuspended, .bool(let b)):
            queues[q.index].isSuspended = b
        case (.maxConcurrentOperationCount, .int(let n)) where !queues[q.index].isMain:
            queues[q.index].cap = CapRule.limit(foundationValue: n).map { .limit($0) } ?? .systemDefault
        case (.operationCount, .int(let n)):
            queues[q.index].operationCount = n
        default:
            break
        }
    }
}

/// The reducer as a free function, for callers that hold the board in a
/// larger state: the same as `board.apply(event)`.
public func reduce(into board: inout BoardState, _ event: LifecycleEvent) {
    board.apply(event)
}

extension RunOutcome {
    /// The stuck operations of a stalled end; empty when it completed.
    public var stuck: [OperationID: StuckReason] {
        if case .stalled(let reasons) = self { return reasons }
        return [:]
    }
}

// MARK: - For BoardHistory

extension BoardState {
    /// The card and the queue row (indices) that `apply(event)` may
    /// change, nil for none: what `BoardHistory` keeps in its next
    /// checkpoint. Keep in step with `apply`: a card or row it changes and
    /// this does not name would come back stale from the history.
    func changed(by event: LifecycleEvent) -> (card: Int?, queue: Int?) {
        switch event.kind {
        case .operation(let op, _, _, _), .dispatched(let op):
            guard scenario.contains(op) else { return (nil, nil) }
            return (op.index, cards[op.index].queue.index)
        case .queue(let q, _, _, _):
            return (nil, scenario.contains(q) ? q.index : nil)
        case .block(let op, _, _, _), .completion(let op, _), .leftover(let op, _):
            return (scenario.contains(op) ? op.index : nil, nil)
        case .stranded(let op):
            guard scenario.contains(op) else { return (nil, nil) }
            return (op.index, cards[op.index].queue.index)
        case .action, .mainThreadWait, .startCall, .caption, .stall, .end:
            return (nil, nil)
        }
    }

    /// The values `apply` keeps besides the cards and rows.
    var moment: BoardMoment {
        BoardMoment(
            lastEventTime: lastEventTime, lastSeq: lastSeq, outcome: outcome, stall: stall,
            mainThreadWait: mainThreadWait, stallContext: stallContext, actions: actions
        )
    }

    /// This board without cards or rows: its scenario and dependents, for
    /// `BoardHistory` to fill from a whole board it kept (`restore`).
    func hollow() -> BoardState {
        var board = self
        board.cards = []
        board.queues = []
        return board
    }

    /// Every card, row and value `apply` changes, from a whole board
    /// `BoardHistory` kept of the same scenario.
    mutating func restore(_ whole: WholeBoard) {
        whole.copyCards(over: &cards)
        queues = whole.queues
        restore(whole.moment)
    }

    /// The cards and rows that changed over a stretch of the run, and the
    /// values at its end, on a board of the same scenario taken before it.
    mutating func restore(_ changes: BoardChanges) {
        for (index, card) in zip(changes.cardIndices, changes.cards) { cards[index] = card }
        for (index, row) in zip(changes.queueIndices, changes.queues) { queues[index] = row }
        restore(changes.moment)
    }

    private mutating func restore(_ moment: BoardMoment) {
        lastEventTime = moment.lastEventTime
        lastSeq = moment.lastSeq
        outcome = moment.outcome
        stall = moment.stall
        mainThreadWait = moment.mainThreadWait
        stallContext = moment.stallContext
        actions = moment.actions
    }
}
