import FoundationRules
import Testing

@Suite struct PriorityRuleTests {
    @Test func anExplicitPriorityWinsOverTheQoSAndTheCap() {
        for limit in [nil, 1, 4] {
            let filing = PriorityRule.filing(explicit: .low, qos: .userInteractive, limitAtAdd: limit)
            #expect(filing == PriorityRule.Filing(level: .low, source: .explicit))
        }
    }

    @Test func withoutOneTheQoSPicksTheBucketUnlessTheQueueIsSerial() {
        #expect(
            PriorityRule.filing(explicit: nil, qos: .userInitiated, limitAtAdd: nil)
                == PriorityRule.Filing(level: .high, source: .qos))
        #expect(
            PriorityRule.filing(explicit: nil, qos: .background, limitAtAdd: 2)
                == PriorityRule.Filing(level: .veryLow, source: .qos))
        #expect(
            PriorityRule.filing(explicit: nil, qos: .userInitiated, limitAtAdd: 1)
                == PriorityRule.Filing(level: .normal, source: .qosIgnored))
        // A QoS that names normal anyway is not "ignored".
        #expect(
            PriorityRule.filing(explicit: nil, qos: .default, limitAtAdd: 1)
                == PriorityRule.Filing(level: .normal, source: .normal))
        #expect(
            PriorityRule.filing(explicit: nil, qos: nil, limitAtAdd: 3)
                == PriorityRule.Filing(level: .normal, source: .normal))
    }

    @Test func everyQoSNamesTheBucketOfItsRank() {
        let order: [QoSLevel] = [.userInteractive, .userInitiated, .default, .utility, .background]
        let levels = order.map(\.impliedPriority)
        #expect(levels == [.veryHigh, .high, .normal, .low, .veryLow])
    }

    @Test func settingThePriorityItHasDoesNothing() {
        #expect(PriorityRule.change(to: .high, explicit: .high, qos: nil, place: .outsideQueue) == .nothing)
        #expect(
            PriorityRule.change(to: .high, explicit: .high, qos: nil, place: .inQueue(filedUnder: .high)) == .nothing)
    }

    @Test func outsideAQueueAChangeIsOnlyRemembered() {
        #expect(PriorityRule.change(to: .low, explicit: nil, qos: .userInitiated, place: .outsideQueue) == .remembered)
        #expect(PriorityRule.change(to: .low, explicit: .high, qos: nil, place: .outsideQueue) == .remembered)
    }

    @Test func inAQueueTheOperationMovesToTheEndOfTheNewBucket() {
        #expect(
            PriorityRule.change(to: .low, explicit: nil, qos: nil, place: .inQueue(filedUnder: .normal)) == .moved)
        #expect(
            PriorityRule.change(to: .normal, explicit: .low, qos: nil, place: .inQueue(filedUnder: .low)) == .moved)
    }

    @Test func aChangeToTheBucketLookedInDoesNothingEvenWithoutAnExplicitPriority() {
        // Its QoS filed it under high: setting high finds it there already.
        #expect(
            PriorityRule.change(to: .high, explicit: nil, qos: .userInitiated, place: .inQueue(filedUnder: .high))
                == .nothing)
    }

    @Test func onASerialQueueTheChangeLooksInTheQoSBucketAndLosesTheOperation() {
        // Added to a serial queue, its QoS was not asked: it is in normal,
        // but the change looks in high (the QoS's) and does not find it.
        #expect(PriorityRule.looksIn(explicit: nil, qos: .userInitiated) == .high)
        #expect(
            PriorityRule.change(to: .veryLow, explicit: nil, qos: .userInitiated, place: .inQueue(filedUnder: .normal))
                == .stays)
    }

    @Test func aDispatchedOperationIsInNoBucket() {
        #expect(PriorityRule.change(to: .low, explicit: nil, qos: nil, place: .inQueue(filedUnder: nil)) == .stays)
        #expect(PriorityRule.change(to: .normal, explicit: nil, qos: nil, place: .inQueue(filedUnder: nil)) == .nothing)
    }
}
