import Foundation
import RunEvents
import ScenarioKit

extension RunCore {
    // MARK: - Scheduler

    /// One dedicated thread (never the global pool, which simulated work
    /// starves): runs `at` actions and announces `at` captions at their
    /// scenario times, fires the timers that end async operations, and
    /// watches for a stall, each as the model says (`schedulerStep`,
    /// `watchForStall`).
    func schedulerLoop() {
        schedulerCondition.lock()
        while true {
            // Nothing is recorded here: no notification is owed.
            let step = withLockedModel { model in model.schedulerStep(real: realTime()) }
            switch step {
            case .ends:
                schedulerCondition.unlock()
                return
            case .fire(let item):
                schedulerCondition.unlock()
                fire(item)
                schedulerCondition.lock()
            case .sleep(let seconds, let watchesStall):
                _ = schedulerCondition.wait(until: Date(timeIntervalSinceNow: seconds))
                guard watchesStall else { continue }
                // Never hold schedulerCondition here: the end wakes sleepers.
                schedulerCondition.unlock()
                withModel { model, real in model.watchForStall(real: real) }
                schedulerCondition.lock()
            }
        }
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
        case .leftover(let op):
            withModel { model, real in model.leftoverEnded(Int(op), real: real) }
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

    func takeEvents(comesBack: Bool = false) -> [LifecycleEvent] {
        withLockedModel { model in model.takeEvents(comesBack: comesBack) }
    }

    func allEvents() -> [LifecycleEvent] { withLockedModel { model in model.log.events } }

    func waitForEnd(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        sleepCondition.lock()
        while !endSignalled {
            if !sleepCondition.wait(until: deadline) { break }
        }
        let ended = endSignalled
        sleepCondition.unlock()
        return ended
    }
}
