import Board
import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import Screen

/// The status line after a key: what the engine did, from the action's
/// event and the board as it is now — never what the key hoped for.
@Suite struct ActionNoticeTests {
    static func notice(_ action: Action, ignored: ActionRefusal? = nil, seq: Int = 0) -> ActionNotice {
        ActionNotice(action: action, ignored: ignored, seq: seq, expiresAt: 10)
    }

    @Test func anIgnoredActionSaysWhatTheEngineSaid() {
        let b = board()
        let text = Self.notice(.suspend(QueueID(2)), ignored: .mainQueueIgnores(.isSuspended))
            .text(board: b, glyphs: .unicode)
        #expect(text.text == "suspend ui: ignored — OperationQueue.main ignores isSuspended")
        #expect(text.refused)
        let ascii = Self.notice(.cancel(OperationID(0)), ignored: .alreadyFinished).text(board: b, glyphs: .ascii)
        #expect(ascii.text == "cancel fetch: ignored - already finished")
    }

    @Test func aBatchAddSaysItWasOneCall() {
        let text = Self.notice(.addBatch([OperationID(0), OperationID(2)])).text(board: board(), glyphs: .unicode)
        #expect(
            text.text
                == "added fetch and thumbs to net in one addOperations call: the queue picks among all of them at once")
        #expect(!text.refused)
    }

    @Test func aCancelSaysWhatItsEffectsWereOnceTheyArrived() {
        let ids = Names(scenario: pipeline)
        var script = Script(pipeline)
        script.add("fetch")
        script.start("fetch")
        let sent = BoardState(scenario: pipeline, replaying: script.events)
        #expect(Self.notice(.cancel(ids("fetch"))).text(board: sent, glyphs: .unicode).text == "cancel() sent to fetch")
        script.cancel("fetch")
        let flagged = BoardState(scenario: pipeline, replaying: script.events)
        #expect(
            Self.notice(.cancel(ids("fetch"))).text(board: flagged, glyphs: .unicode).text
                == "fetch is cancelled and still executing: cancel() only sets isCancelled; it stops when its work checks the flag"
        )
        script.finish("fetch")
        let done = BoardState(scenario: pipeline, replaying: script.events)
        #expect(
            Self.notice(.cancel(ids("fetch"))).text(board: done, glyphs: .unicode).text
                == "fetch was cancelled while it ran and finished when its work saw the flag")
        var skip = Script(pipeline)
        skip.add("thumbs")
        skip.skip("thumbs")
        #expect(
            Self.notice(.cancel(ids("thumbs"))).text(
                board: BoardState(scenario: pipeline, replaying: skip.events), glyphs: .unicode
            ).text
                == "thumbs was cancelled before it started: it finished without running")
    }

    @Test func queueActionsSayTheQueueAsItIsNow() {
        let suspended = board { $0.suspended("net", true) }
        #expect(
            Self.notice(.suspend(QueueID(0))).text(board: suspended, glyphs: .unicode).text
                == "net is suspended: what runs goes on, nothing new starts (s resumes it)")
        #expect(Self.notice(.resume(QueueID(0))).text(board: board(), glyphs: .unicode).text == "net is resumed")
        let capped = board { s in
            for name in ["fetch", "thumbs"] {
                s.add(name)
                s.start(name)
            }
            s.cap("net", 1, old: 2)
        }
        #expect(
            Self.notice(.setCap(QueueID(0), .limit(1))).text(board: capped, glyphs: .unicode).text
                == "net: 2 running · cap 1 (serial); the 2 already running go on (Foundation never stops them)")
        // The cap event has not arrived yet: no claim about it.
        #expect(
            Self.notice(.setCap(QueueID(0), .limit(5))).text(board: capped, glyphs: .unicode).text
                == "maxConcurrentOperationCount of net set")
        let all = board { s in
            s.add("fetch")
            s.add("parse", ready: false)
            s.emit(.action(.cancelAll(QueueID(0)), origin: .user, ignored: nil))
            s.cancel("fetch")
            s.cancel("parse")
        }
        #expect(
            Self.notice(.cancelAll(QueueID(0)), seq: 3).text(board: all, glyphs: .unicode).text
                == "cancelAllOperations() on net: isCancelled is now true on 2 operations")
    }
}
