import Foundation

extension RunCore {
    // MARK: - Simulated work

    /// Sleeps until scenario time reaches `end`, as the model says
    /// (`RunModel.workWait`): in slices of at most 10 ms real, held while
    /// paused (waits on the condition, no polling); returns early when `op`
    /// is cancelled (if cooperative) or the run stops.
    func simulate(until end: Double, op: Operation?, cooperative: Bool) {
        lock.assertNotHeld()
        let onMainThread = CurrentThread.isMain
        sleepCondition.lock()
        while true {
            let cancelled = op?.isCancelled ?? false
            let wait = withLockedModel { model in
                model.workWait(
                    until: end, cooperative: cooperative, cancelled: cancelled, onMainThread: onMainThread,
                    real: realTime())
            }
            switch wait {
            case .done:
                sleepCondition.unlock()
                return
            case .waitForResume:
                sleepCondition.wait()
            case .sleep(let seconds):
                _ = sleepCondition.wait(until: Date(timeIntervalSinceNow: seconds))
            case .runOutInRealTime(let seconds):
                sleepCondition.unlock()
                finishInRealTime(seconds, op: op, cooperative: cooperative)
                return
            }
        }
    }

    /// Sleeps `seconds` of real time in slices of 10 ms, returning early on
    /// a cancel (if cooperative) or when the run stops.
    private func finishInRealTime(_ seconds: Double, op: Operation?, cooperative: Bool) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            let cancelled = op?.isCancelled ?? false
            let goesOn = withLockedModel { model in model.keepsWorking(cooperative: cooperative, cancelled: cancelled) }
            guard goesOn else { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Wakes the scheduler (a new timer may be due earlier).
    func signalScheduler() {
        schedulerCondition.lock()
        schedulerCondition.signal()
        schedulerCondition.unlock()
    }

    /// Wakes whatever sleeps: simulated work, `waitForEnd` and the
    /// scheduler (pause, resume, speed, stop, end).
    func wakeSleepers() {
        sleepCondition.lock()
        sleepCondition.broadcast()
        sleepCondition.unlock()
        schedulerCondition.lock()
        schedulerCondition.broadcast()
        schedulerCondition.unlock()
    }
}
