import RunEvents
import ScenarioKit

/// What comes next in scenario time: an `at` action, an `at` caption, a
/// timer that ends an asynchronous operation. The shell's scheduler
/// thread sleeps until the earliest and hands it back here.
extension RunModel {
    enum Scheduled: Equatable {
        /// `scenario.actions[index]`.
        case action(Int)
        /// `scenario.captions[index]`, an `at` caption.
        case caption(Int)
        /// The earliest timer: the asynchronous operation it ends.
        case timer(Int32)
        /// The end of the work operation's `main()` left running.
        case leftover(Int32)
    }

    /// The earliest item and its scenario time, nil when nothing is to
    /// come. Ties: actions first (in file order), then the timers due then,
    /// then the captions: a caption describes its moment, what the actions
    /// of that moment did included.
    func nextScheduled() -> (item: Scheduled, due: Double)? {
        let actions = scenario.actions
        let actionDue = nextTimedAction < actions.count ? actions[nextTimedAction].time.seconds : .infinity
        let caption = captions.nextTimedCaption
        let captionDue = caption?.due ?? .infinity
        let timer = timers.nextAsyncEnd
        let timerDue = timer?.due ?? .infinity
        let leftover = timers.nextLeftover
        let leftoverDue = leftover?.due ?? .infinity
        let due = min(actionDue, captionDue, timerDue, leftoverDue)
        guard due.isFinite else { return nil }
        if actionDue == due { return (.action(nextTimedAction), due) }
        if let timer, timerDue == due { return (.timer(timer.op), due) }
        if let leftover, leftoverDue == due { return (.leftover(leftover.op), due) }
        return (.caption(caption!.caption), due)
    }

    /// Whether an action or a timer is still to come (captions do not keep
    /// a run going, nor hold off a stall).
    var hasEngineWorkScheduled: Bool {
        nextTimedAction < scenario.actions.count || timers.hasTimers
    }

    /// Takes `item` off the schedule (the shell then performs it).
    mutating func take(_ item: Scheduled) {
        switch item {
        case .action: nextTimedAction += 1
        case .caption: captions.takeTimed()
        case .timer: timers.takeAsyncEnd()
        case .leftover: timers.takeLeftover()
        }
    }
}
