import EventFixtures
import FoundationRules
import RunEvents
import ScenarioKit
import Testing

@testable import Board

/// The history keeps events as 32-byte records, and every kind of event,
/// with any values, reads back as it was given: the usual ones from the
/// record itself, the rest (and any number beyond an `Int32`) from the
/// table aside.
@Suite struct EventRecordTests {
    static let op = OperationID(3)
    static let q = QueueID(1)
    static let big = Int(Int32.max) + 1

    /// Events a record holds by itself.
    static let compact: [LifecycleEvent.Kind] =
        OperationKey.allCases.flatMap { key in
            [
                .operation(op, key, old: nil, new: .bool(true)),
                .operation(op, key, old: .bool(true), new: .bool(false)),
                .operation(op, key, old: .bool(false), new: .bool(true)),
            ]
        }
        + PriorityLevel.allCases.map { .operation(op, .queuePriority, old: .priority(.normal), new: .priority($0)) }
        + PriorityLevel.allCases.map { .operation(op, .queuePriority, old: .priority($0), new: .priority(.low)) }
        + [.operation(OperationID(Int(Int32.max)), .isReady, old: nil, new: .bool(false))]
        + [.operation(OperationID(-1), .isReady, old: nil, new: .bool(false))]
        + QueueKey.allCases.flatMap { key in
            [
                .queue(q, key, old: nil, new: .int(4)),
                .queue(q, key, old: .int(-1), new: .int(2)),
                .queue(q, key, old: .bool(false), new: .bool(true)),
                .queue(q, key, old: .int(Int(Int32.min)), new: .int(Int(Int32.max))),
                .queue(q, key, old: .priority(.high), new: .priority(.veryLow)),
            ]
        }
        + [
            .block(op, index: 0, phase: .started, thread: ThreadTag(2)),
            .block(op, index: 7, phase: .returned, thread: .main),
            .completion(op, thread: ThreadTag(Int(Int32.max))),
            .caption(0, paused: false),
            .caption(12, paused: true),
            .end(.completed),
        ]

    /// Events kept whole aside.
    static let aside: [LifecycleEvent.Kind] =
        [
            .operation(op, .isReady, old: .int(1), new: .bool(true)),
            .operation(op, .isReady, old: nil, new: .int(big)),
            .operation(OperationID(big), .isReady, old: nil, new: .bool(true)),
            .queue(QueueID(big), .operationCount, old: nil, new: .int(1)),
            .queue(q, .operationCount, old: .int(big), new: .int(1)),
            .queue(q, .operationCount, old: .int(0), new: .int(-big - 1)),
            .block(op, index: big, phase: .started, thread: ThreadTag(1)),
            .block(op, index: 0, phase: .started, thread: ThreadTag(big)),
            .completion(OperationID(big), thread: .main),
            .caption(big, paused: false),
            .stall([op: .waitsFor(OperationID(1), root: OperationID(0)), OperationID(4): .queueSuspended(q)]),
            .stall([:]),
            .end(.stalled([op: .neverPostedFinish, OperationID(5): .unknown])),
        ]
        + [
            Action.cancel(op), .cancelAll(q), .suspend(q), .resume(q), .setCap(q, .limit(3)),
            .setCap(q, .systemDefault),
            .setPriority(op, .veryHigh), .add(op),
        ].flatMap { action in
            [
                .action(action, origin: .timed(2), ignored: nil),
                .action(action, origin: .completion(op), ignored: .alreadyFinished),
                .action(action, origin: .user, ignored: .mainQueueIgnores(.isSuspended)),
            ]
        }

    /// Every kind, then again announced from a thread (only an
    /// operation's key change keeps one in its record), stamped in order.
    static func events(_ kinds: [LifecycleEvent.Kind]) -> [LifecycleEvent] {
        (kinds + kinds).enumerated().map { i, kind in
            LifecycleEvent(
                seq: i == 0 ? Int.min : i * 1_000_003, time: i == 1 ? -0.0 : Double(i) / 3, kind: kind,
                thread: i >= kinds.count ? ThreadTag(i % 5) : nil)
        }
    }

    @Test func everyKindReadsBackAsItWasGiven() {
        let all = Self.events(Self.compact + Self.aside)
        var kept = BoardHistory.Events()
        for event in all { kept.append(event) }
        #expect(Array(kept) == all)
        for (position, event) in all.enumerated() {
            #expect(kept.time(at: position).bitPattern == event.time.bitPattern)
        }
    }

    @Test func theUsualEventsFitARecord() {
        #expect(MemoryLayout<EventRecord>.stride == 32)
        for event in Self.events(Self.compact) {
            let fits: Bool
            if case .operation = event.kind { fits = true } else { fits = event.thread == nil }
            #expect((EventRecord(event) != nil) == fits, "\(event)")
        }
        for event in Self.events(Self.aside) { #expect(EventRecord(event) == nil, "\(event)") }
    }

    /// Records are kept in chunks: positions across their edges read back.
    @Test func manyEventsAcrossChunks() {
        var random = SplitMix64(seed: 10)
        let kinds = Self.compact + Self.aside
        let all = (0..<10_000).map { i in
            LifecycleEvent(
                seq: i + 1, time: Double(i) / 100, kind: kinds[Int.random(in: 0..<kinds.count, using: &random)])
        }
        var kept = BoardHistory.Events()
        for event in all { kept.append(event) }
        #expect(kept.count == all.count)
        for _ in 0..<500 {
            let position = Int.random(in: 0..<all.count, using: &random)
            #expect(kept[position] == all[position])
        }
        #expect(kept.last == all.last)
    }
}
