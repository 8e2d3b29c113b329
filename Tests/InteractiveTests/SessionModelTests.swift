import Board
import EventFixtures
import Foundation
import RunEvents
import ScenarioKit
import Screen
import Testing

@testable import Interactive

/// The session over one scenario, fed events, keys and moments by hand:
/// what it asks of the run and the files, and what the screen shows.
@Suite struct SessionModelTests {
    /// a then b on a serial queue; two captions at a's start, one at b's.
    static let scenario = ScenarioReader.read(
        """
        queue q serial
        op a work 1s
        op b work 1s after a
        when a starts say "a starts"
        when a starts say "and b waits"
        when b starts say "b starts"
        """
    ).scenario!

    static let file = RecordingFile(path: "scenarios/ab.ops", source: "op a work 1s\n")

    static func model(paused: Bool = false, lesson: Bool = false, source: SessionModel.Source = .live)
        -> SessionModel
    {
        SessionModel(
            scenario: scenario, settings: .init(speed: 1, paused: paused, lesson: lesson), file: file,
            source: source, at: 0)
    }

    static func press(
        _ key: Key, _ model: inout SessionModel, _ moment: SessionMoment, date: Date = Date(timeIntervalSince1970: 0)
    ) -> [SessionEffect] {
        let frame = model.frameInput(size: Size(columns: 120, rows: 40), glyphs: .unicode, colors: false, moment)
        return model.handle(key, frame: frame, moment, date: date)
    }

    static let space = Key.character(" ")

    /// a added and started, with its two captions reached (the first
    /// pausing the run in lesson mode).
    static func aStarts() -> [LifecycleEvent] {
        var s = Script(scenario)
        s.add("a")
        s.add("b", ready: false)
        s.start("a")
        s.emit(.caption(0, paused: true))
        s.emit(.caption(1, paused: false))
        return s.events
    }

    /// Once the run is judged, the frame carries the main thread's long
    /// waits, as `trace` ends with them; not while the run goes on.
    @Test func theEndsFrameSaysHowLongTheMainThreadWaited() {
        let scenario = ScenarioReader.read(
            "queue ui main\nqueue files\nop export on files work 1s\nat 100ms wait export\n"
        ).scenario!
        var model = SessionModel(
            scenario: scenario, settings: .init(speed: 1, paused: false, lesson: false), file: Self.file,
            source: .live, at: 0)
        _ = model.open(at: 0)
        var s = Script(scenario)
        s.add("export")
        s.start("export")
        s.at(0.1)
        s.emit(.action(.wait(s.id("export")), origin: .timed(0), ignored: nil))
        s.emit(.mainThreadWait(.wait(s.id("export")), phase: .started), thread: .main)
        _ = model.take(s.events, SessionMoment(wall: 1, runPaused: false))
        let size = Size(columns: 120, rows: 40)
        #expect(
            model.frameInput(size: size, glyphs: .unicode, colors: false, SessionMoment(wall: 1)).mainThreadWaitLines
                .isEmpty)
        let taken = s.events.count
        s.at(1.0)
        s.finish("export")
        s.emit(.mainThreadWait(.wait(s.id("export")), phase: .returned), thread: .main)
        s.end()
        _ = model.take(Array(s.events[taken...]), SessionMoment(wall: 2, runPaused: false))
        #expect(
            model.frameInput(size: size, glyphs: .unicode, colors: false, SessionMoment(wall: 2)).mainThreadWaitLines
                == [
                    "main thread blocked longer than 100ms (1 time):",
                    "  blocked 900ms from 0.100s waiting for export (export.waitUntilFinished(), 'at 100ms wait "
                        + "export', line 4)",
                ])
    }

    @Test func aLiveRunIsMadeAndStartedUnlessItOpensPaused() {
        var moving = Self.model()
        let opened = moving.open(at: 0)
        #expect(opened == [.newRun(speed: 1, paused: false, lesson: false), .startRun])
        #expect(moving.started)

        var paused = Self.model(paused: true, lesson: true)
        let openedPaused = paused.open(at: 0)
        #expect(openedPaused == [.newRun(speed: 1, paused: true, lesson: true)])
        #expect(!paused.started)
        // Space hands it to Foundation, then pauses and resumes it.
        let space1 = Self.press(Self.space, &paused, SessionMoment(wall: 1))
        #expect(space1 == [.startRun])
        #expect(paused.started)
        let space2 = Self.press(Self.space, &paused, SessionMoment(wall: 2, runPaused: false))
        #expect(space2 == [.pauseRun])
        let space3 = Self.press(Self.space, &paused, SessionMoment(wall: 3, runPaused: true))
        #expect(space3 == [.resumeRun])
    }

    /// In lesson mode each caption of a moment gets its own Space: the
    /// second waits while the run is paused at the first, and Space shows
    /// it without resuming; the next Space resumes.
    @Test func captionsOfOneMomentEachWaitForASpace() {
        var model = Self.model(lesson: true)
        _ = model.open(at: 0)
        let events = Self.aStarts()
        model.take(Array(events.dropLast()), SessionMoment(wall: 1, runPaused: true))
        #expect(model.caption?.text == "a starts" && model.pausedAtCaption)
        model.take(Array(events.suffix(1)), SessionMoment(wall: 1, runPaused: true))
        #expect(model.caption?.text == "a starts", "the second caption waits for its Space")
        let first = Self.press(Self.space, &model, SessionMoment(wall: 2, runPaused: true))
        #expect(first == [])
        #expect(model.caption?.text == "and b waits" && model.pausedAtCaption)
        let second = Self.press(Self.space, &model, SessionMoment(wall: 3, runPaused: true))
        #expect(second == [.resumeRun])
        #expect(!model.pausedAtCaption)
    }

    /// Once a key's action changed the run, a caption says it was written
    /// for the run without the change.
    @Test func captionsAfterAKeysActionAreMarkedScripted() {
        var model = Self.model()
        _ = model.open(at: 0)
        var s = Script(Self.scenario)
        s.add("a")
        s.add("b", ready: false)
        s.start("a")
        s.emit(.caption(0, paused: false))
        model.take(s.events, SessionMoment(wall: 1, runPaused: false))
        #expect(model.caption?.scripted == false)
        var later = Script(Self.scenario)
        later.nextSeq = s.nextSeq
        later.emit(.action(.cancel(later.id("b")), origin: .user, ignored: nil))
        later.emit(.caption(2, paused: false))
        model.take(later.events, SessionMoment(wall: 2, runPaused: false))
        #expect(model.caption?.text == "b starts" && model.caption?.scripted == true)
    }

    @Test func theLongestHoldOfTheMainThreadIsKept() {
        var model = Self.model()
        let a = Self.scenario.operationID(named: "a")!
        let b = Self.scenario.operationID(named: "b")!
        model.mainThread(.began(a), at: 10)
        model.mainThread(.ended(a), at: 10.1)
        #expect(model.mainThreadBlocked == nil, "a tenth of a second froze nothing a person notices")
        model.mainThread(.began(a), at: 20)
        model.mainThread(.ended(a), at: 21.5)
        model.mainThread(.began(b), at: 30)
        model.mainThread(.ended(b), at: 30.6)
        #expect(model.mainThreadBlocked == MainThreadBlock(operation: a, seconds: 1.5))
    }

    @Test func savingAsksForTheRecordingUnderItsNameAndSaysWhatHappened() throws {
        var model = Self.model()
        _ = model.open(at: 0)
        let w = Key.character("W")
        let early = Self.press(w, &model, SessionMoment(wall: 1))
        #expect(early == [])
        #expect(model.state.visibleMessage(now: 1)?.text == "nothing to save yet: the run has not begun")
        model.take(Self.aStarts(), SessionMoment(wall: 2, runPaused: false))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let date = try #require(
            calendar.date(from: DateComponents(year: 2026, month: 12, day: 2, hour: 9, minute: 5, second: 7)))
        let effects = Self.press(w, &model, SessionMoment(wall: 3, runPaused: false), date: date)
        guard case .save(let name, let bytes)? = effects.first, effects.count == 1 else {
            Issue.record("W asked for \(effects)")
            return
        }
        #expect(name == "ab-20261202-090507.jsonl")
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.first?.contains(#""path":"scenarios/ab.ops""#) == true)
        #expect(lines.count == 1 + Self.aStarts().count)
        model.saved(name, ok: false, at: 4)
        #expect(model.state.visibleMessage(now: 4)?.text == "cannot write \(name) in this folder: nothing saved")
        model.saved(name, ok: true, at: 5)
        #expect(model.state.visibleMessage(now: 5)?.text == "saved as \(name): opscope replay plays it")
    }

    @Test func restartOpensTheScenarioAgainAsItOpened() {
        var model = Self.model(paused: true, lesson: true)
        _ = model.open(at: 0)
        _ = Self.press(Self.space, &model, SessionMoment(wall: 1))
        model.take(Self.aStarts(), SessionMoment(wall: 2, runPaused: true))
        _ = Self.press(Key.character(">"), &model, SessionMoment(wall: 3, runPaused: true))
        #expect(model.settings.speed != 1)
        let effects = Self.press(Key.character("r"), &model, SessionMoment(wall: 4, runPaused: true))
        #expect(effects == [.newRun(speed: 1, paused: true, lesson: true)])
        #expect(!model.started && model.board.lastSeq == 0 && model.history.count == 0)
        #expect(model.caption == nil && !model.pausedAtCaption)
        #expect(model.settings == SessionModel.Settings(speed: 1, paused: true, lesson: true))
        #expect(
            model.state.visibleMessage(now: 4)?.text
                == "restarted: a new run, with new queues and operations, from t=0, not started: Space starts it")
    }

    @Test func qInALessonAsksBeforeLeavingAndASecondQLeaves() {
        var model = Self.model(paused: true, lesson: true)
        _ = model.open(at: 0)
        #expect(Self.press(Key.character("q"), &model, SessionMoment(wall: 1)) == [])
        #expect(model.state.visibleMessage(now: 1)?.text == "q again leaves the lesson; any other key stays")
        // Any other key stays, and does what it does.
        let space = Self.press(Self.space, &model, SessionMoment(wall: 2))
        #expect(space.contains(.startRun))
        #expect(model.state.visibleMessage(now: 2)?.text != "q again leaves the lesson; any other key stays")
        #expect(Self.press(Key.character("q"), &model, SessionMoment(wall: 3)) == [])
        #expect(Self.press(Key.character("q"), &model, SessionMoment(wall: 4)) == [.quit])
        // Ctrl-C leaves at once; outside a lesson q does too.
        #expect(Self.press(Key.ctrl("c"), &model, SessionMoment(wall: 5)) == [.quit])
        var plain = Self.model()
        _ = plain.open(at: 0)
        #expect(Self.press(Key.character("q"), &plain, SessionMoment(wall: 1)) == [.quit])
    }

    /// The help covers the board: a moving run pauses while it is open and
    /// goes on when it closes; a paused one stays paused.
    @Test func anOverlayHoldsAMovingRun() {
        var model = Self.model()
        _ = model.open(at: 0)
        let help = Key.character("?")
        let opened = Self.press(help, &model, SessionMoment(wall: 1, runPaused: false))
        #expect(opened == [.pauseRun])
        let closed = Self.press(help, &model, SessionMoment(wall: 2, runPaused: true))
        #expect(closed == [.resumeRun])
        let openedPaused = Self.press(help, &model, SessionMoment(wall: 3, runPaused: true))
        let closedPaused = Self.press(help, &model, SessionMoment(wall: 4, runPaused: true))
        #expect(openedPaused == [] && closedPaused == [])
    }

    @Test func aKeysActionGoesToTheRunAndARefusalIsSaid() {
        var model = Self.model()
        _ = model.open(at: 0)
        model.take(Array(Self.aStarts().prefix(3)), SessionMoment(wall: 1, runPaused: false))
        let a = Self.scenario.operationID(named: "a")!
        let effects = Self.press(Key.character("c"), &model, SessionMoment(wall: 2, runPaused: false))
        guard case .perform(let action, let refusal)? = effects.first, effects.count == 1 else {
            Issue.record("c asked for \(effects)")
            return
        }
        #expect(action == .cancel(a))
        model.refused(refusal, at: 3)
        #expect(model.state.visibleMessage(now: 3)?.text == refusal)
    }

    /// A replay is whole from its first frame, and plays on its own clock.
    @Test func aReplayPlaysItsRecordingOnItsOwnClock() {
        var s = Script(Self.scenario)
        s.add("a")
        s.add("b", ready: false)
        s.run("a", from: 0, to: 1)
        s.ready("b")
        s.run("b", from: 1, to: 2)
        s.end()
        var model = Self.model(paused: true, source: .recording(s.events))
        let opened = model.open(at: 0)
        #expect(opened == [])
        #expect(model.state.historyCursor == 0 && model.history.count == s.events.count)
        let played = Self.press(Self.space, &model, SessionMoment(wall: 10))
        #expect(played == [])
        #expect(model.isMoving(SessionMoment(wall: 10)))
        let moved = model.tick(at: 11.5)
        #expect(moved)
        let cursor = model.state.historyCursor ?? -1
        #expect(cursor > 0 && cursor < s.events.count, "half way through at 1.5s")
        _ = model.tick(at: 20)
        #expect(model.state.historyCursor == nil, "at the end: the recording's last notification")
        #expect(!model.isMoving(SessionMoment(wall: 20)))
    }
}
