import FoundationRules
import Testing

@Suite struct DispatchRuleTests {
    @Test func bucketsAreWalkedBarriersFirstThenFromVeryHighDown() {
        #expect(DispatchBucket.allCases.sorted() == [.barrier, .veryHigh, .high, .normal, .low, .veryLow])
        #expect(PriorityLevel.allCases.map(DispatchBucket.init).allSatisfy { $0 > .barrier })
        for level in PriorityLevel.allCases { #expect(DispatchBucket(level).level == level) }
        #expect(DispatchBucket.barrier.level == nil)
    }

    @Test func aHigherBucketGoesFirstWhateverWasFiledFirst() {
        let early = DispatchRule.Place(bucket: .low, filed: 1)
        let late = DispatchRule.Place(bucket: .high, filed: 9)
        #expect(DispatchRule.precedes(late, early))
        #expect(!DispatchRule.precedes(early, late))
    }

    @Test func inOneBucketTheOneFiledFirstGoesFirst() {
        let a = DispatchRule.Place(bucket: .normal, filed: 1)
        let b = DispatchRule.Place(bucket: .normal, filed: 2)
        #expect(DispatchRule.precedes(a, b))
        #expect(!DispatchRule.precedes(b, a))
        #expect(!DispatchRule.precedes(a, a))
    }

    @Test func aQueueHandsOutWhileItHasAFreeSlotAndIsNotSuspended() {
        #expect(DispatchRule.mayDispatch(holding: 3, limit: 4, suspended: false))
        #expect(!DispatchRule.mayDispatch(holding: 4, limit: 4, suspended: false))
        #expect(!DispatchRule.mayDispatch(holding: 0, limit: 4, suspended: true))
        #expect(DispatchRule.mayDispatch(holding: 1000, limit: nil, suspended: false))
    }
}

@Suite struct CapRuleTests {
    @Test func minusOneLetsTheSystemDecideAndTheMainQueueRunsOne() {
        #expect(CapRule.limit(foundationValue: -1) == nil)
        #expect(CapRule.limit(foundationValue: 3) == 3)
        #expect(CapRule.limit(foundationValue: -1, isMainQueue: true) == 1)
        #expect(CapRule.limit(foundationValue: 8, isMainQueue: true) == 1)
        #expect(CapRule.isSerial(limit: 1) && !CapRule.isSerial(limit: nil) && !CapRule.isSerial(limit: 2))
    }

    @Test func aCapIsMinusOneOrAtLeastOne() {
        #expect(CapRule.accepts(-1) && CapRule.accepts(1) && CapRule.accepts(64))
        #expect(!CapRule.accepts(0) && !CapRule.accepts(-2))
    }

    @Test func aSlotIsHeldFromTheDispatchToTheFinish() {
        #expect(!CapRule.holdsSlot(dispatched: false, finished: false))
        #expect(CapRule.holdsSlot(dispatched: true, finished: false))
        #expect(!CapRule.holdsSlot(dispatched: true, finished: true))
    }

    @Test func loweringTheCapTakesNoSlotBack() {
        // From 4 to 1 with 4 holding: all 4 keep theirs, then each finish
        // frees one until the new cap rules.
        #expect(CapRule.allowed(limit: 1, before: 4, finishedSince: 0) == 4)
        #expect(CapRule.allowed(limit: 1, before: 4, finishedSince: 2) == 2)
        #expect(CapRule.allowed(limit: 1, before: 4, finishedSince: 5) == 1)
        #expect(CapRule.allowed(limit: 3, before: nil, finishedSince: 0) == 3)
        #expect(CapRule.allowed(limit: nil, before: 2, finishedSince: 0) == nil)
    }
}
