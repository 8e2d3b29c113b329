import Foundation
import RunEvents
import ScenarioKit

extension RunCore {
    // MARK: - Scheduler

    /// One dedicated thread (never the global pool, which simulated work
    /// starves): runs `at` actions and announces `at` captions at their
    /// scenario times, fires the timers that end async operations, and
    /// decides stalls (debounced: the condition must hold, with no new
    /// event, across 200 ms of real time, so that transient engine states
    /// pass).
    func schedulerLoop() {
        var probeSeq = -1
        var probeReal: UInt64 = 0
        schedulerCondition.lock()
        while true {
            lock.lock()
            let done = model.log.isClosed || model.lifecycle == .stopped
            let now = model.now(realTime())
            let paused = model.clock.isStopped
            let speed = model.clock.speed
            let next = model.nextScheduled()
            let engineWork = model.hasEngineWorkScheduled
            let forgetsAt = model.forgetsAt
            if let next, next.due <= now, !paused { model.take(next.item) }
            lock.unlock()
            if done { break }
            if let next, next.due <= now, !paused {
                schedulerCondition.unlock()
                fire(next.item)
                schedulerCondition.lock()
                continue
            }
            var wait = 0.2
            if let next, !paused { wait = min(wait, max((next.due - now) / speed, 0.0005)) }
            if forgetsAt > now, !paused { wait = min(wait, max((forgetsAt - now) / speed, 0.0005)) }
            _ = schedulerCondition.wait(until: Date(timeIntervalSinceNow: wait))
            if !engineWork {
                // Never hold schedulerCondition here: the end wakes sleepers.
                schedulerCondition.unlock()
                defer { schedulerCondition.lock() }
                lock.lock()
                let probe = model.stallProbe(at: model.now(realTime()))
                lock.unlock()
                if let s = probe {
                    let real = realTime()
                    if s != probeSeq {
                        probeSeq = s
                        probeReal = real
                    } else if real - probeReal >= 200_000_000 {
                        withModel { model, real in model.declareStall(ifStillAt: s, real: real) }
                    }
                } else {
                    probeSeq = -1
                }
            }
        }
        schedulerCondition.unlock()
    }

    private func fire(_ item: RunModel.Scheduled) {
        switch item {
        case .action(let index):
            perform(scenario.actions[index].action, origin: .timed(index))
            withModel { model, real in model.timedActionDone(real: real) }
        case .caption(let index):
            withModel { model, real in model.caption(index, model.stamp(real)) }
        case .timer(let op):
            asyncFinish(Int(op))
        }
    }

    // MARK: - Control

    func pause() {
        withModel { model, real in model.clock.pause(real) }
        wakeSleepers()
    }

    func resume() {
        withModel { model, real in model.clock.resume(real) }
        wakeSleepers()
    }

    func setSpeed(_ speed: Double) {
        withModel { model, real in model.clock.setSpeed(speed, real) }
        wakeSleepers()
    }

    func takeEvents() -> [LifecycleEvent] {
        lock.lock()
        defer { lock.unlock() }
        mailboxSignalled = false
        return model.log.takeNew()
    }

    func allEvents() -> [LifecycleEvent] {
        lock.lock()
        defer { lock.unlock() }
        return model.log.events
    }

    func waitForEnd(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        endCondition.lock()
        while !endSignalled {
            if !endCondition.wait(until: deadline) { break }
        }
        let ended = endSignalled
        endCondition.unlock()
        return ended
    }
}
