import ScenarioKit

/// The rules of `LifeCheck` that are not an operation's own life: the work
/// a `main()` leaves running, the main thread's waits, and operations it
/// starts by hand.
extension LifeCheck {
    // MARK: - Work left running

    mutating func visitLeftover(_ op: OperationID, _ phase: BlockPhase) -> Fault? {
        let life = lives[op.index]
        switch phase {
        case .started:
            guard life.has(.executing), !life.leftoverRunning else {
                return Fault(
                    message: "\(quoted(op)) left work running while it was not executing, or twice", place: .phase)
            }
            lives[op.index].leftoverRunning = true
        case .returned:
            guard life.leftoverRunning else {
                return Fault(message: "the work \(quoted(op)) left running ended before it began", place: .phase)
            }
            lives[op.index].leftoverRunning = false
        }
        return nil
    }

    // MARK: - The main thread's waits

    mutating func visitWait(_ action: Action, _ phase: BlockPhase) -> Fault? {
        let text = "'" + ScenarioPrinter.actionText(action, in: scenario) + "'"
        switch phase {
        case .started:
            defer { mainWait = action }
            guard let mainWait else { return nil }
            return Fault(
                message: "the main thread began \(text) while it was still blocked in "
                    + "'\(ScenarioPrinter.actionText(mainWait, in: scenario))'", place: .phase)
        case .returned:
            defer { mainWait = nil }
            guard mainWait == action else {
                return Fault(message: "the main thread returned from \(text), which it had not begun", place: .phase)
            }
            if case .wait(let op) = action, scenario.contains(op), !lives[op.index].has(.finished) {
                return Fault(
                    message: "the main thread returned from \(text) before \(quoted(op)) finished", place: .phase)
            }
            return nil
        }
    }

    // MARK: - Operations started by hand

    @inline(__always) func isByHand(_ op: OperationID) -> Bool { !byHand.isEmpty && byHand[op.index] }

    /// The rules of an operation started by hand that the others do not
    /// have: never added; executing, or finished without having run, only
    /// inside a `start()` the main thread called for it.
    func handFault(_ op: OperationID, _ key: OperationKey, initial: Bool, _ new: KeyValue) -> Fault? {
        let life = lives[op.index]
        if key == .isReady && initial {
            return Fault(message: "\(quoted(op)) was added to a queue, but it is started by hand", place: .old)
        }
        let begins = key == .isExecuting && new == .bool(true)
        let skips = key == .isFinished && new == .bool(true) && !life.has(.started) && !life.has(.finished)
        guard (begins || skips) && handStart != op else { return nil }
        let what = begins ? "began executing" : "finished without running"
        return Fault(
            message: "\(quoted(op)) \(what) outside a start() of it, and it is started by hand", place: .key)
    }

    mutating func visitStartCall(_ op: OperationID, _ phase: BlockPhase) -> Fault? {
        let call = startText(op)
        switch phase {
        case .started:
            defer { handStart = op }
            if let handStart {
                return Fault(
                    message: "the main thread called \(call) while it was still in \(startText(handStart))",
                    place: .phase)
            }
            if let mainWait {
                return Fault(
                    message: "the main thread called \(call) while it was still blocked in "
                        + "'\(ScenarioPrinter.actionText(mainWait, in: scenario))'", place: .phase)
            }
            if !isByHand(op) {
                return Fault(message: "\(call) was called by hand, but its queue starts it", place: .kind)
            }
            return nil
        case .returned:
            defer { handStart = nil }
            guard handStart == op else {
                return Fault(message: "the main thread returned from \(call), which it had not called", place: .phase)
            }
            let life = lives[op.index]
            if !scenario[operation: op].body.isAsync, !life.has(.finished) {
                return Fault(
                    message: "the main thread returned from \(call) before \(quoted(op)) finished: a synchronous "
                        + "operation's start() returns once it finished", place: .phase)
            }
            return nil
        }
    }
}
