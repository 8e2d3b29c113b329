import RunEvents
import Testing

@testable import LifecycleEngine

/// The run's log, with and without its history.
@Suite struct EventLogTests {
    static func fill(_ log: inout EventLog, _ n: Int, from t: Double = 0) {
        for i in 0..<n { log.append(.caption(i, paused: false), at: t + Double(i)) }
    }

    @Test func aLogWithoutHistoryLetsGoOfWhatWasTakenAndKeepsCounting() {
        var log = EventLog(capacity: 1_000_000, keepsHistory: false)
        Self.fill(&log, 3)
        #expect(log.count == 3 && log.hasNew)
        let first = log.takeNew()
        #expect(first.map(\.seq) == [1, 2, 3])
        #expect(log.events.isEmpty, "taken events are not held")
        #expect(!log.hasNew)
        let mark = log.count
        Self.fill(&log, 2, from: 10)
        #expect(log.count == 5)
        #expect(log.recorded(from: mark).map(\.seq) == [4, 5], "positions count what was let go of")
        #expect(log.takeNew().map(\.seq) == [4, 5])
        #expect(log.takeNew().isEmpty)
        #expect(log.events.capacity <= EventLog.batchCapacity * 2, "a large reservation is not kept per batch")
    }

    @Test func aLogWithHistoryKeepsEverything() {
        var log = EventLog(capacity: 16)
        Self.fill(&log, 3)
        #expect(log.takeNew().map(\.seq) == [1, 2, 3])
        Self.fill(&log, 2)
        #expect(log.takeNew().map(\.seq) == [4, 5])
        #expect(log.events.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(log.recorded(from: 3).map(\.seq) == [4, 5])
    }
}
