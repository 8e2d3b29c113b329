import RunEvents
import ScenarioKit

/// The main thread's waits (`at TIME wait OP`, `at TIME wait-all QUEUE`):
/// the main thread announces each as it calls Foundation's wait and as the
/// wait returns. While it waits it runs nothing else, so the main queue
/// starts nothing; a wait whose end needs the main thread never returns.
extension RunModel {
    /// The main thread is about to call Foundation's wait for `action`.
    /// False when the run is over: the main thread must not block for a
    /// run that ended or was stopped.
    mutating func mainWaitStarted(_ action: Action, real: UInt64) -> Bool {
        guard lifecycle == .running, !log.isClosed else {
            mainThread.waitDropped()
            return false
        }
        mainThread.waitBegan(action)
        emit(.mainThreadWait(action, phase: .started), stamp(real))
        return true
    }

    /// Foundation's wait returned on the main thread.
    mutating func mainWaitReturned(_ action: Action, real: UInt64) {
        let t = stamp(real)
        mainThread.waitReturned()
        emit(.mainThreadWait(action, phase: .returned), t)
        checkCompleted(t)
    }

    /// Whether Foundation's wait for `action` has what it waits for, so
    /// that its return is owed: its operation finished, or its queue holds
    /// no operation.
    func waitCanReturn(_ action: Action) -> Bool {
        switch action {
        case .wait(let op): records.indices.contains(op.index) && records[op.index].phase == .finished
        case .waitAll(let q): queues.indices.contains(q.index) && queues[q.index].operationCount == 0
        default: true
        }
    }

    /// The last event is a stall, or the run ended stalled.
    var isStalledNow: Bool { log.seq == stallSeq || (log.isClosed && unfinishedOps > 0) }

    /// Whether what the main thread will do with its waits can still move
    /// the run: a wait posted that it has not begun (it will), or the one
    /// it is in can return.
    var mainThreadWaitProgresses: Bool { mainThread.waitsProgress { waitCanReturn($0) } }
}
