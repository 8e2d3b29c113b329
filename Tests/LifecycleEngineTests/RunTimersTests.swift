import Testing

@testable import LifecycleEngine

/// The timers that end asynchronous operations and leftover work: what is
/// counted, what is set, in which order they come, and `forgetsAt`.
struct RunTimersTests {
    @Test func anAsynchronousOperationWithWorkIsCountedAndGetsATimer() {
        var timers = RunTimers()
        timers.asyncBegan(4, at: 1.0, duration: 0.5, postsFinish: true)
        #expect(timers.asyncPending == 1 && timers.hasTimers)
        #expect(timers.nextAsyncEnd?.op == 4 && timers.nextAsyncEnd?.due == 1.5)
        timers.takeAsyncEnd()
        #expect(!timers.hasTimers && timers.asyncPending == 1, "counted until it finishes")
        timers.asyncEnded()
        #expect(timers.asyncPending == 0)
    }

    @Test func oneOfNoDurationIsCountedWithoutATimer() {
        var timers = RunTimers()
        timers.asyncBegan(0, at: 2.0, duration: 0, postsFinish: true)
        #expect(timers.asyncPending == 1 && timers.nextAsyncEnd == nil)
        timers.asyncEnded()
        #expect(timers.asyncPending == 0)
    }

    @Test func oneThatNeverPostsItsFinishMovesForgetsAtOnlyForward() {
        var timers = RunTimers()
        timers.asyncBegan(0, at: 1.0, duration: 2.0, postsFinish: false)
        #expect(timers.forgetsAt == 3.0 && timers.asyncPending == 0 && !timers.hasTimers)
        timers.asyncBegan(1, at: 1.5, duration: 0.5, postsFinish: false)
        #expect(timers.forgetsAt == 3.0, "an earlier end does not move it back")
        timers.asyncBegan(2, at: 2.5, duration: 1.0, postsFinish: false)
        #expect(timers.forgetsAt == 3.5)
    }

    @Test func timersComeEarliestFirstAndTiesInTheOrderSet() {
        var timers = RunTimers()
        timers.asyncBegan(1, at: 0, duration: 0.3, postsFinish: true)
        timers.asyncBegan(2, at: 0, duration: 0.1, postsFinish: true)
        timers.asyncBegan(3, at: 0.2, duration: 0.1, postsFinish: true)
        var order: [Int32] = []
        while let next = timers.nextAsyncEnd {
            order.append(next.op)
            timers.takeAsyncEnd()
        }
        #expect(order == [2, 1, 3])
    }

    @Test func leftoverWorkIsCountedUntilItEndsAndHasATimerOfItsOwn() {
        var timers = RunTimers()
        timers.leftoverStarted(7, due: 0.4)
        #expect(timers.leftoversPending == 1 && timers.nextLeftover?.op == 7 && timers.nextAsyncEnd == nil)
        #expect(timers.hasTimers)
        timers.takeLeftover()
        #expect(!timers.hasTimers && timers.leftoversPending == 1)
        timers.leftoverEnded()
        #expect(timers.leftoversPending == 0)
    }
}
