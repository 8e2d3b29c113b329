import FoundationRules
import Testing

@Suite struct OperationLifeTests {
    /// Takes each step in turn and gives the first broken rule, if any.
    static func walk(
        _ steps: [OperationLife.Step], inAQueue: Bool = true, dispatchObserved: Bool = true
    ) -> OperationLife.Broken? {
        var life = OperationLife()
        for step in steps {
            if let broken = life.take(step, inAQueue: inAQueue, dispatchObserved: dispatchObserved) { return broken }
        }
        return nil
    }

    @Test func aLifeFoundationLivesBreaksNothing() {
        let run: [OperationLife.Step] = [.added, .dispatched, .executing(true), .executing(false), .finished(true)]
        #expect(Self.walk(run + [.completionRan]) == nil)
        // A cancel may come at any moment before the finish.
        #expect(
            Self.walk([.added, .dispatched, .executing(true), .cancelled(true), .executing(false), .finished(true)])
                == nil)
        // Cancelled before it starts: dispatched, finished without running.
        #expect(Self.walk([.added, .cancelled(true), .ready(true), .dispatched, .finished(true)]) == nil)
        // Started by hand: never added nor dispatched.
        #expect(Self.walk([.executing(true), .executing(false), .finished(true)], inAQueue: false) == nil)
    }

    @Test func aCancelBeforeTheStartMeansItNeverExecutes() {
        #expect(Self.walk([.added, .cancelled(true), .dispatched, .executing(true)]) == .executedThoughCancelled)
        #expect(Self.walk([.cancelled(true), .executing(true)], inAQueue: false) == .executedThoughCancelled)
        var life = OperationLife()
        _ = life.take(.added)
        _ = life.take(.cancelled(true))
        #expect(life.has(.cancelledBeforeStart))
    }

    @Test func eachStageComesOnceAndInOrder() {
        #expect(Self.walk([.added, .added]) == .addedTwice)
        #expect(Self.walk([.added, .dispatched, .dispatched]) == .dispatchedTwice)
        #expect(Self.walk([.dispatched]) == .dispatchedBeforeAdd)
        #expect(Self.walk([.added, .dispatched, .executing(true), .dispatched]) == .dispatchedAfterStart)
        #expect(Self.walk([.added, .dispatched, .executing(true), .executing(true)]) == .executingTwice)
        #expect(Self.walk([.added, .dispatched, .executing(false)]) == .stoppedNotExecuting(started: false))
        #expect(Self.walk([.added, .dispatched, .executing(true), .finished(true)]) == .finishedWhileExecuting)
        #expect(Self.walk([.added, .dispatched, .finished(false)]) == .finishUndone)
        #expect(Self.walk([.added, .cancelled(true), .cancelled(false)]) == .cancelUndone)
        #expect(Self.walk([.executing(true)]) == .beforeAdd)
    }

    @Test func nothingButTheCompletionBlockFollowsTheFinish() {
        let done: [OperationLife.Step] = [.added, .dispatched, .executing(true), .executing(false), .finished(true)]
        #expect(Self.walk(done + [.finished(true)]) == .finishedTwice)
        #expect(Self.walk(done + [.cancelled(true)]) == .afterFinish)
        #expect(Self.walk(done + [.dispatched]) == .dispatchedAfterFinish)
        #expect(Self.walk(done + [.completionRan, .completionRan]) == .completionTwice)
        #expect(Self.walk([.added, .completionRan]) == .completionBeforeFinish)
    }

    @Test func whereDispatchesAreObservedAQueueDispatchesBeforeItStarts() {
        #expect(Self.walk([.added, .executing(true)]) == .notDispatched(finishing: false))
        #expect(Self.walk([.added, .cancelled(true), .finished(true)]) == .notDispatched(finishing: true))
        #expect(Self.walk([.added, .executing(true)], dispatchObserved: false) == nil)
        #expect(Self.walk([.added, .dispatched], inAQueue: false) == .dispatchedByHand)
    }

    @Test func onlyACancelledOperationWaitingToStartIsStranded() {
        #expect(Self.walk([.added, .cancelled(true), .dispatched, .stranded]) == nil)
        #expect(Self.walk([.added, .dispatched, .stranded]) == .strandedNotWaiting)
        // Stranded, it never starts again.
        #expect(Self.walk([.added, .cancelled(true), .dispatched, .stranded, .executing(true)]) == .executingTwice)
    }
}
