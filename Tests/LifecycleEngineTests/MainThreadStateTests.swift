import ScenarioKit
import Testing

@testable import LifecycleEngine

/// What the run asked of the main thread: each wait and each hand start
/// opened when posted and closed once; the one in progress; and whether
/// what is open can still move the run.
struct MainThreadStateTests {
    static let waitA = Action.wait(OperationID(0))
    static let waitAll = Action.waitAll(QueueID(1))

    @Test func aWaitIsOpenFromItsPostToItsReturn() {
        var main = MainThreadState()
        #expect(main.isIdle)
        main.waitPosted()
        #expect(main.waitsOpen == 1 && main.wait == nil && !main.isIdle)
        main.waitBegan(Self.waitA)
        #expect(main.wait == Self.waitA)
        main.waitReturned()
        #expect(main.waitsOpen == 0 && main.wait == nil && main.isIdle)
    }

    @Test func aWaitDroppedBeforeItBeganClosesWithoutOne() {
        var main = MainThreadState()
        main.waitPosted()
        main.waitPosted()
        main.waitDropped()
        #expect(main.waitsOpen == 1 && main.wait == nil)
        main.waitDropped()
        #expect(main.isIdle)
    }

    @Test func aHandStartIsOpenFromItsPostToItsReturnOrRefusal() {
        var main = MainThreadState()
        main.handStartPosted()
        main.handStartPosted()
        #expect(main.handStartsOpen == 2 && main.handStart == nil)
        main.handStartDropped()
        #expect(main.handStartsOpen == 1, "a refused start is done with")
        main.handStartCalled(3)
        #expect(main.handStart == 3)
        main.handStartReturned()
        #expect(main.handStart == nil && main.handStartsOpen == 0 && main.isIdle)
    }

    @Test func aRunIsNotIdleWhileEitherKindIsOpen() {
        var main = MainThreadState()
        main.handStartPosted()
        main.waitPosted()
        main.waitBegan(Self.waitAll)
        main.waitReturned()
        #expect(!main.isIdle, "the start is still to come")
        main.handStartDropped()
        #expect(main.isIdle)
    }

    @Test func waitsProgressWhileOneIsToBeginOrTheOneInProgressCanReturn() {
        var main = MainThreadState()
        #expect(!main.waitsProgress { _ in true }, "nothing posted")
        main.waitPosted()
        #expect(main.waitsProgress { _ in false }, "posted, not begun: the main thread will begin it")
        main.waitBegan(Self.waitA)
        var asked: [Action] = []
        let progresses = main.waitsProgress { action in
            asked.append(action)
            return false
        }
        #expect(!progresses)
        #expect(asked == [Self.waitA], "the wait in progress is the one asked about")
        #expect(main.waitsProgress { _ in true })
    }

    @Test func aStartQueuedBehindAWaitThatCannotReturnDoesNotProgress() {
        var main = MainThreadState()
        main.handStartPosted()
        #expect(main.handStartsProgress { _ in false }, "no wait holds the main thread")
        main.waitPosted()
        main.waitBegan(Self.waitAll)
        #expect(!main.handStartsProgress { _ in false })
        #expect(main.handStartsProgress { _ in true })
        main.handStartDropped()
        #expect(!main.handStartsProgress { _ in true }, "none left to make")
    }
}
