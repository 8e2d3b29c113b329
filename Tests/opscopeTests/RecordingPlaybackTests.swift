import Foundation
import RunEvents
import ScenarioKit
import Testing

@testable import Interactive

/// A recording plays back on its own clock, injected here: events come due
/// at their recorded times, lesson mode pauses at captions, and nothing
/// can act on it.
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

    @Test func eventsComeDueAtTheirRecordedTimesAndTheClockStopsAtTheLast() {
        let (playback, clock) = Self.playback(speed: 2)
        #expect(playback.isPaused)
        #expect(playback.takeEvents().isEmpty)
        playback.start()
        #expect(playback.takeEvents().map(\.seq) == [1])
        clock.now += 0.5  // scenario 1.0 at ×2
        #expect(playback.takeEvents().map(\.seq) == [2, 3])
        playback.pause()
        clock.now += 10
        #expect(playback.now == 1.0)
        #expect(playback.takeEvents().isEmpty)
        playback.resume()
        clock.now += 10
        #expect(playback.takeEvents().map(\.seq) == [4])
        #expect(playback.isExhausted)
        #expect(playback.now == 2.0)
    }

    @Test func lessonModePausesAtACaptionAndSaysSo() {
        let (playback, clock) = Self.playback(lesson: true)
        playback.start()
        clock.now += 5
        let first = playback.takeEvents()
        #expect(first.map(\.seq) == [1, 2])
        #expect(first.last?.kind == .caption(0, paused: true))
        #expect(playback.isPaused && playback.now == 0.5)
        playback.resume()
        clock.now += 5
        #expect(playback.takeEvents().map(\.seq) == [3, 4])
    }

    @Test func stepsAndTheEndTakeWhatIsLeftWhateverTheClock() {
        let (playback, _) = Self.playback()
        #expect(playback.takeNext()?.seq == 1)
        #expect(playback.takeNext()?.seq == 2)
        #expect(playback.now == 0.5)
        #expect(playback.takeAll().map(\.seq) == [3, 4])
        #expect(playback.takeNext() == nil)
        #expect(playback.now == 2.0)
    }

    @Test func aReplayTakesNoAction() {
        let (playback, _) = Self.playback()
        playback.start()
        #expect(!playback.perform(.cancel(OperationID(0)), origin: .user))
        playback.stop()
        #expect(playback.takeAll().isEmpty)
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
