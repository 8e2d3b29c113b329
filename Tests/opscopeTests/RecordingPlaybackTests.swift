import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import Interactive

/// A replay's position moves on its own clock, injected here: events come
/// due at their recorded times, from any position, and lesson mode stops at
/// captions.
@MainActor @Suite struct RecordingPlaybackTests {
    final class Clock {
        var now = 100.0
    }

    static func event(_ seq: Int, at time: Double, _ kind: LifecycleEvent.Kind) -> LifecycleEvent {
        LifecycleEvent(seq: seq, time: time, kind: kind)
    }

    static let events: [LifecycleEvent] = [
        event(1, at: 0, .queue(QueueID(0), .isSuspended, old: .bool(false), new: .bool(true))),
        event(2, at: 0.5, .caption(0, paused: false)),
        event(3, at: 1.0, .queue(QueueID(0), .isSuspended, old: .bool(true), new: .bool(false))),
        event(4, at: 2.0, .end(.completed)),
    ]

    static func playback(speed: Double = 1, lesson: Bool = false) -> (RecordingPlayback, Clock) {
        let clock = Clock()
        let playback = RecordingPlayback(
            events: events, speed: speed, pausesAtCaptions: lesson, realTime: { clock.now })
        return (playback, clock)
    }

    @Test func thePositionMovesAsTheRecordedTimesComeDueAndStopsAtTheEnd() {
        let (playback, clock) = Self.playback(speed: 2)
        #expect(!playback.isPlaying && playback.position == 0)
        #expect(playback.advance() == 0, "nothing moves before it plays")
        playback.play(from: 0)
        #expect(playback.advance() == 1)
        clock.now += 0.5  // scenario 1.0 at ×2
        #expect(playback.advance() == 3)
        playback.pause()
        clock.now += 10
        #expect(playback.now == 1.0)
        #expect(playback.advance() == 3)
        playback.play(from: playback.position)
        clock.now += 10
        #expect(playback.advance() == 4)
        #expect(playback.isAtEnd && !playback.isPlaying)
        #expect(playback.now == 2.0)
        #expect(!playback.play(from: 4), "at the end there is nothing to play")
    }

    @Test func itPlaysFromAnyPositionOnTheClockOfThatMoment() {
        let (playback, clock) = Self.playback()
        playback.move(to: 2)
        #expect(playback.now == 0.5 && !playback.isPlaying)
        playback.play(from: 2)
        clock.now += 0.4
        #expect(playback.advance() == 2, "0.9s: the resume at 1.0s has not come")
        clock.now += 0.2
        #expect(playback.advance() == 3)
    }

    @Test func lessonModeStopsAtACaptionWithTheEventsOfItsMoment() {
        let (playback, clock) = Self.playback(lesson: true)
        playback.play(from: 0)
        clock.now += 5
        #expect(playback.advance() == 2)
        #expect(!playback.isPlaying && playback.stoppedAtCaption && playback.now == 0.5)
        playback.play(from: playback.position)
        #expect(!playback.stoppedAtCaption)
        clock.now += 5
        #expect(playback.advance() == 4)
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
