import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// What the interface says of an operation started by hand: the notice of
/// each start (made, a no-op, or refused with what Foundation would have
/// done), the card, the inspector and the table, at moments of lesson 33's
/// run (`StartByHandFixture`).
@Suite struct StartByHandScreenTests {
    typealias F = StartByHandFixture
    static let fetch = OperationID(1)

    static func board(after count: Int) -> BoardState {
        BoardState(scenario: F.scenario, replaying: Array(F.events.prefix(count)))
    }

    static func seq(ofAction n: Int) -> Int {
        F.events.filter { if case .action = $0.kind { true } else { false } }[n].seq
    }

    static func notice(_ n: Int, ignored: ActionRefusal?, after count: Int) -> (text: String, refused: Bool) {
        ActionNotice(action: .start(fetch), ignored: ignored, seq: seq(ofAction: n), expiresAt: 10)
            .text(board: board(after: count), glyphs: .unicode)
    }

    @Test func eachStartSaysWhatItDidOrWhyItWasNotMade() {
        #expect(
            Self.notice(0, ignored: .startNotReady, after: F.refused) == (
                "start() not called: fetch is not ready (it waits for token); Foundation would stop the program "
                    + "here: receiver is not yet ready to execute", true
            ))
        #expect(
            Self.notice(1, ignored: nil, after: F.firstReturn) == (
                "fetch.start() ran it on thread main and returned once it finished: it was never in a queue", false
            ))
        #expect(
            Self.notice(2, ignored: nil, after: F.secondReturn) == (
                "fetch had finished: its start() did nothing (the call returned at once)", false
            ))
    }

    @Test(arguments: [
        (ActionRefusal.startNotReadyAsync, "its own start() does not look at isReady, and would begin before it"),
        (.startWhileExecuting, "Foundation would stop the program here: receiver is already executing"),
        (.startWhileExecutingAsync, "its own start() would begin its work a second time"),
        (
            .startInAQueue,
            "Foundation would stop the program here: something is trying to start the receiver simultaneously from "
                + "more than one thread"
        ),
    ])
    func everyRefusalSaysWhatWouldHaveHappened(_ refusal: ActionRefusal, _ ending: String) {
        let (text, refused) = Self.notice(0, ignored: refusal, after: F.refused)
        #expect(refused && text.hasPrefix("start() not called: fetch ") && text.hasSuffix(ending), "\(text)")
    }

    @Test func theCardSaysWhatItWaitsForThenWhenItIsStartedThenThatNoQueueHoldsIt() {
        func rows(_ count: Int) -> [String] {
            let b = Self.board(after: count)
            return CardView.rows(b[operation: Self.fetch], board: b, now: b.lastEventTime, width: 18, glyphs: .unicode)
                .rows
        }
        #expect(rows(F.refused) == ["fetch", "work by hand", "after token"])
        #expect(rows(F.tokenFinished) == ["fetch", "work by hand", "start() at 600ms"])
        #expect(rows(F.events.count)[1] == "work by hand")
        #expect(rows(F.events.count)[2].hasPrefix("✓ 0.900s"))
    }

    @Test func theInspectorSaysItWasStartedByHandOnTheMainThreadAndNeverInAQueue() {
        let b = Self.board(after: F.events.count)
        let text = InspectorText.lines(board: b, op: Self.fetch, now: b.lastEventTime).map(\.text)
        #expect(text.first == "work 300ms, in no queue: the main thread starts it by hand")
        #expect(text.contains("start() not called at 0.100s (line 5): " + ActionRefusal.startNotReady.text))
        #expect(text.contains("start() called by hand on the main thread at 0.600s (line 6)"))
        #expect(text.contains("start() called by hand on the main thread at 1.200s (line 7)"))
        #expect(text.contains { $0.hasPrefix("ran 0.600→0.900s") && $0.hasSuffix("on thread main") }, "\(text)")
        #expect(text.contains { $0.hasPrefix("note: started by hand: never in a queue;") }, "\(text)")
        let waiting = Self.board(after: F.refused)
        let before = InspectorText.lines(board: waiting, op: Self.fetch, now: 0.1).map(\.text)
        #expect(
            before.contains("  in no queue: the main thread calls its start() by hand at 600ms (line 6)"), "\(before)")
    }

    @Test func theTableSaysByHandAndNotStarted() {
        let b = Self.board(after: F.refused)
        #expect(OperationTable.text(.queue, of: Self.fetch, board: b) == "by hand")
        #expect(OperationTable.stateText(b[operation: Self.fetch]) == "not started")
    }
}
