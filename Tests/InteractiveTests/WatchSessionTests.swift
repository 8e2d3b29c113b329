import Board
import EventFixtures
import Foundation
import RunEvents
import ScenarioKit
import Screen
import Testing

@testable import Interactive

/// `--watch` and `d` in the session, fed by hand: a save reloads as `r`
/// restarts, keeping what it can; a broken save shows its diagnostics over
/// the run; the run before stays to compare with.
@Suite struct WatchSessionTests {
    static let scenario = SessionModelTests.scenario
    static let size = Size(columns: 100, rows: 40)

    static func model() -> SessionModel {
        var model = SessionModel(
            scenario: scenario, settings: .init(speed: 1, paused: false, lesson: false), file: SessionModelTests.file,
            at: 0)
        _ = model.open(at: 0)
        return model
    }

    static func frame(_ model: SessionModel, _ moment: SessionMoment) -> FrameInput {
        model.frameInput(size: size, glyphs: .unicode, colors: false, moment)
    }

    static func press(_ key: Key, _ model: inout SessionModel, _ moment: SessionMoment) -> [SessionEffect] {
        model.handle(key, frame: frame(model, moment), moment, date: Date(timeIntervalSince1970: 0))
    }

    /// A whole run of a then b, as the engine would report it.
    static func wholeRun(_ scenario: Scenario, startingAt seq: Int = 1) -> [LifecycleEvent] {
        var s = Script(scenario)
        s.nextSeq = seq
        s.add("a")
        s.add("b", ready: false)
        s.run("a", from: 0, to: 1)
        s.ready("b")
        s.run("b", from: 1, to: 2)
        s.end()
        return s.events
    }

    static let edited = ScenarioReader.read(
        """
        queue q serial
        op a work 1s
        op c work 1s
        op b work 1s after a
        """
    ).scenario!

    @Test func aSaveRunsTheNewFileAndKeepsTheSelectionByName() {
        var model = Self.model()
        model.take(Self.wholeRun(Self.scenario), SessionMoment(wall: 1))
        model.state.selectedOperation = Self.scenario.operationID(named: "b")
        model.state.boardArea = .timeline
        let effects = model.reload(
            Self.edited, file: RecordingFile(path: "scenarios/ab.ops", source: ""),
            settings: .init(speed: 2, paused: false, lesson: false), changes: "1 change: c added", at: 2)
        #expect(effects == [.newRun(speed: 2, paused: false, lesson: false), .startRun])
        #expect(model.scenario == Self.edited && model.settings.speed == 2)
        #expect(model.history.count == 0 && model.board.outcome == nil)
        #expect(model.state.selectedOperation == Self.edited.operationID(named: "b"), "b is now the third")
        #expect(model.state.boardArea == .timeline)
        #expect(model.state.visibleMessage(now: 2)?.text == "reloaded ab.ops: 1 change: c added")
        // `r` then runs the new file, at its speed.
        let again = Self.press(.character("r"), &model, SessionMoment(wall: 3, runPaused: false))
        #expect(again == [.newRun(speed: 2, paused: false, lesson: false), .startRun])
        #expect(model.scenario == Self.edited)
    }

    @Test func dComparesWithTheRunBeforeWithoutPausingThisOne() throws {
        var model = Self.model()
        let refused = Self.press(.character("d"), &model, SessionMoment(wall: 1, runPaused: false))
        #expect(refused == [] && model.state.overlay == .none)
        #expect(model.state.visibleMessage(now: 1)?.text.hasPrefix("no run before this one to compare with") == true)
        model.take(Self.wholeRun(Self.scenario), SessionMoment(wall: 1))
        _ = Self.press(.character("r"), &model, SessionMoment(wall: 2))
        // The new run, half way: a started, nothing more.
        var s = Script(Self.scenario)
        s.add("a")
        s.add("b", ready: false)
        s.start("a")
        model.take(s.events, SessionMoment(wall: 3, runPaused: false))
        let opened = Self.press(.character("d"), &model, SessionMoment(wall: 3, runPaused: false))
        #expect(opened == [], "the diff follows the run: it does not pause it")
        #expect(model.state.overlay == .diff)
        var lines = try #require(Self.frame(model, SessionMoment(wall: 3, runPaused: false)).overlayText)
        #expect(lines.first?.hasPrefix("the runs differ: their steps part at step 2") == true)
        #expect(lines.contains { $0.hasPrefix("(this run has not ended") })
        #expect(
            lines.contains("A: scenarios/ab.ops, the run before r — 12 notifications, 5 steps, completed at 2.000s"))
        // The rest of the same run: now they agree, and the text follows.
        let rest = Array(Self.wholeRun(Self.scenario).dropFirst(s.events.count))
        model.take(rest, SessionMoment(wall: 4, runPaused: false))
        lines = try #require(Self.frame(model, SessionMoment(wall: 4)).overlayText)
        #expect(
            lines.first
                == "the runs agree: the same 5 steps in the same order, and every operation ends the same way")
        #expect(!lines.contains { $0.hasPrefix("(this run has not ended") })
        _ = Self.press(.escape, &model, SessionMoment(wall: 5))
        #expect(model.state.overlay == .none)
    }

    @Test func aSaveWithErrorsShowsItsDiagnosticsOverTheRunAndTheNextGoodSaveReloads() throws {
        var model = Self.model()
        model.take(Self.wholeRun(Self.scenario), SessionMoment(wall: 1))
        let file = SourceFile(path: "scenarios/ab.ops", text: "queue q serial\nop a work 1s after nosuch\n")
        model.showProblems(ScenarioReader.read(file), file: file, at: 2)
        #expect(model.state.overlay == .problems)
        #expect(model.history.count == Self.wholeRun(Self.scenario).count, "the run shown stays")
        #expect(
            model.state.visibleMessage(now: 2)?.text
                == "ab.ops has an error: the run shown is from before it; Esc closes")
        let lines = try #require(Self.frame(model, SessionMoment(wall: 2)).overlayText)
        #expect(
            Array(lines.dropFirst(2).prefix(3)) == [
                "scenarios/ab.ops:2:20: error: unknown operation 'nosuch'",
                "op a work 1s after nosuch",
                "                   ^",
            ])
        let effects = model.reload(
            Self.edited, file: RecordingFile(path: "scenarios/ab.ops", source: ""),
            settings: .init(speed: 1, paused: false, lesson: false), changes: "1 change", at: 3)
        #expect(effects.count == 2 && model.state.overlay == .none && model.problems == nil)
        // The run before the broken save is the one compared with.
        _ = Self.press(.character("d"), &model, SessionMoment(wall: 4, runPaused: false))
        let diff = try #require(Self.frame(model, SessionMoment(wall: 4)).overlayText)
        #expect(diff.contains { $0.hasPrefix("A: scenarios/ab.ops, the run before this save — 12 notifications") })
    }
}
