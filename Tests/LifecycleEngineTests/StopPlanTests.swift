import Testing

@testable import LifecycleEngine

@Suite struct StopPlanTests {
    @Test func aStopCancelsThenLetsGoThenResumesThenOpensGates() {
        // Queue 0 is the main queue; 1 and 2 are the run's own.
        let plan = StopPlan(isMain: [true, false, false], kinds: [.work, .async, .barrier, .blocks], gates: [2])
        #expect(
            plan.steps == [
                .cancelAll(queue: 1), .cancelAll(queue: 2),
                .cancel(operation: 0), .cancel(operation: 2), .cancel(operation: 3),
                .letGo(asyncOperation: 1),
                .resume(queue: 1), .resume(queue: 2),
                .openGate(operation: 2),
            ])
    }

    @Test func theMainQueueIsNeitherCancelledAllNorResumed() {
        // It ignores cancel-all and cannot be suspended: its operations are
        // cancelled one by one.
        let plan = StopPlan(isMain: [true], kinds: [.work, .work], gates: [])
        #expect(plan.steps == [.cancel(operation: 0), .cancel(operation: 1)])
    }

    @Test func nothingToStopIsAnEmptyPlan() {
        #expect(StopPlan(isMain: [], kinds: [], gates: []).steps.isEmpty)
    }
}

@Suite struct ReleaseWatchTests {
    @Test func itReleasesOnceFoundationProcessedEverything() {
        var watch = ReleaseWatch()
        #expect(watch.look(left: 3, mainQueueWasGivenOperations: false) == .lookAgain)
        #expect(watch.look(left: 1, mainQueueWasGivenOperations: false) == .lookAgain)
        #expect(watch.look(left: 0, mainQueueWasGivenOperations: false) == .release)
    }

    @Test func withMainQueueOperationsItWaitsForTheMainThreadFirst() {
        var watch = ReleaseWatch()
        #expect(watch.look(left: 0, mainQueueWasGivenOperations: true) == .releaseAfterTheMainQueue)
    }

    @Test func progressKeepsItLookingAndStillnessKeepsEverythingForGood() {
        var watch = ReleaseWatch()
        // Each look that sees fewer left starts the patience again.
        for left in stride(from: 1000, to: 0, by: -1) {
            #expect(watch.look(left: left, mainQueueWasGivenOperations: false) == .lookAgain)
        }
        #expect(watch.idle == 0)
        // Then nothing moves: one that never finishes holds its queue.
        var answers: [ReleaseWatch.Next] = []
        for _ in 0..<ReleaseWatch.patience { answers.append(watch.look(left: 1, mainQueueWasGivenOperations: false)) }
        #expect(answers.dropLast().allSatisfy { $0 == .lookAgain })
        #expect(answers.last == .keepForGood)
    }

    @Test func itKeepsLookingForTenSecondsOfStillness() {
        let seconds = Double(ReleaseWatch.patience * ReleaseWatch.intervalMilliseconds) / 1000
        #expect(seconds == 10)
    }
}
