import Testing

@testable import LifecycleEngine

/// The tags a run gives threads: the main thread 0, the others in the
/// order first seen, each once.
struct ThreadTagsTests {
    typealias Thread = RunModel.ThreadIdentity

    @Test func theMainThreadIsZeroAndTheOthersCountFromOneInTheOrderSeen() {
        var tags = ThreadTags()
        #expect(tags.tag(Thread(id: 70, isMain: false)) == 1)
        #expect(tags.tag(Thread(id: 5, isMain: true)) == 0)
        #expect(tags.tag(Thread(id: 30, isMain: false)) == 2)
        #expect(tags.nextNumber == 3, "the main thread took no number")
    }

    @Test func aThreadSeenAgainKeepsItsFirstTag() {
        var tags = ThreadTags()
        let worker = Thread(id: 70, isMain: false)
        let main = Thread(id: 5, isMain: true)
        #expect(tags.tag(worker) == 1)
        #expect(tags.tag(main) == 0)
        #expect(tags.tag(worker) == 1)
        #expect(tags.tag(main) == 0)
        #expect(tags.seen.count == 2, "each thread is listed once")
        #expect(tags.nextNumber == 2)
    }

    @Test func tagsAreDistinctAcrossManyThreads() {
        var tags = ThreadTags()
        let given = (1...40).map { tags.tag(Thread(id: UInt($0 * 7), isMain: false)) }
        #expect(Set(given).count == 40)
        #expect(given == (1...40).map(Int16.init))
        #expect((1...40).map { tags.tag(Thread(id: UInt($0 * 7), isMain: false)) } == given)
    }
}
