import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import Interactive

/// A replay's position moves on its own clock, the real time passed in:
/// events come due at their recorded times, from any position, and lesson
/// mode stops at captions.
@Suite struct ReplayClockTests {
    static func event(_ seq: Int, at time: Double, _ kind: LifecycleEvent.Kind) -> LifecycleEvent {
        LifecycleEvent(seq: seq, time: time, kind: kind)
    }

    static let events: [LifecycleEvent] = [
        event(1, at: 0, .queue(QueueID(0), .isSuspended, old: .bool(false), new: .bool(true))),
        event(2, at: 0.5, .caption(0, paused: false)),
        event(3, at: 1.0, .queue(QueueID(0), .isSuspended, old: .bool(true), new: .bool(false))),
        event(4, at: 2.0, .end(.completed)),
    ]

    @Test func thePositionMovesAsTheRecordedTimesComeDueAndStopsAtTheEnd() {
        var clock = ReplayClock(events: Self.events, speed: 2, pausesAtCaptions: false)
        var wall = 100.0
        #expect(!clock.isPlaying && clock.position == 0)
        let position1 = clock.advance(at: wall)
        #expect(position1 == 0, "nothing moves before it plays")
        clock.play(from: 0, at: wall)
        let position2 = clock.advance(at: wall)
        #expect(position2 == 1)
        wall += 0.5  // scenario 1.0 at ×2
        let position3 = clock.advance(at: wall)
        #expect(position3 == 3)
        clock.pause(at: wall)
        wall += 10
        #expect(clock.now(at: wall) == 1.0)
        let position4 = clock.advance(at: wall)
        #expect(position4 == 3)
        clock.play(from: clock.position, at: wall)
        wall += 10
        let position5 = clock.advance(at: wall)
        #expect(position5 == 4)
        #expect(clock.isAtEnd && !clock.isPlaying)
        #expect(clock.now(at: wall) == 2.0)
        let played = clock.play(from: 4, at: wall)
        #expect(!played, "at the end there is nothing to play")
    }

    @Test func itPlaysFromAnyPositionOnTheClockOfThatMoment() {
        var clock = ReplayClock(events: Self.events, speed: 1, pausesAtCaptions: false)
        var wall = 100.0
        clock.move(to: 2, at: wall)
        #expect(clock.now(at: wall) == 0.5 && !clock.isPlaying)
        clock.play(from: 2, at: wall)
        wall += 0.4
        let position6 = clock.advance(at: wall)
        #expect(position6 == 2, "0.9s: the resume at 1.0s has not come")
        wall += 0.2
        let position7 = clock.advance(at: wall)
        #expect(position7 == 3)
    }

    @Test func lessonModeStopsAtACaptionWithTheEventsOfItsMoment() {
        var clock = ReplayClock(events: Self.events, speed: 1, pausesAtCaptions: true)
        var wall = 100.0
        clock.play(from: 0, at: wall)
        wall += 5
        let position8 = clock.advance(at: wall)
        #expect(position8 == 2)
        #expect(!clock.isPlaying && clock.stoppedAtCaption && clock.now(at: wall) == 0.5)
        clock.play(from: clock.position, at: wall)
        #expect(!clock.stoppedAtCaption)
        wall += 5
        let position9 = clock.advance(at: wall)
        #expect(position9 == 4)
    }

    @Test func aSavedRecordingIsNamedAfterItsScenarioAndTheMoment() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let date = try #require(
            calendar.date(from: DateComponents(year: 2026, month: 12, day: 1, hour: 14, minute: 15, second: 2)))
        #expect(
            RecordingFile.savedName(for: "scenarios/05-suspend.ops", at: date) == "05-suspend-20261201-141502.jsonl")
        #expect(RecordingFile.savedName(for: "", at: date) == "run-20261201-141502.jsonl")
    }
}
