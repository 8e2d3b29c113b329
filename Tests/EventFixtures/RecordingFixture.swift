import RunEvents
import RunFormats
import ScenarioKit
import Testing

/// A recording with every kind of line the encoder writes, written by hand
/// (stalls, keys pressed, every reason an action is ignored, each stuck
/// clause), and the helpers the recording tests share.
public enum RecordingFixture {
    public static let source = """
        title "every kind of line"
        queue net max 2
        queue disk suspended
        queue ui main
        op fetch on net work 100ms completion cancel-all disk leaves 50ms
        op thumbs on net blocks 2 x 10ms
        op parse on disk work 10ms after fetch
        op forgets on net async 10ms never-finishes
        op late on net work 10ms
        op show on ui work 10ms after parse
        barrier flush on net
        op lost on disk async 10ms never-finishes if-cancelled
        op hand work 10ms
        op idle work 10ms after parse
        at 100ms cancel parse
        at 200ms max net default
        at 200ms max net 3
        at 300ms priority thumbs high
        at 400ms cancel parse
        at 500ms add late
        at 600ms wait fetch
        at 700ms wait-all net
        at 800ms start hand
        at 900ms start idle
        at 1s say "hello"
        at 2s say "hello"
        when fetch finishes say "fetch is done: \\"quoted\\", back\\\\slash, é ✓"

        """

    public static let scenario: Scenario = {
        let result = ScenarioReader.read(source)
        return result.scenario ?? Scenario(queues: [], operations: [])
    }()

    public static let header = JSONLineEncoder.Header(
        opscope: "0.1-test", language: 1, path: "every-kind.ops", source: source)

    public static func op(_ name: String) -> OperationID { scenario.operationID(named: name)! }
    public static func queue(_ name: String) -> QueueID { scenario.queueID(named: name)! }

    /// Every kind and value the encoder writes, times not on the millisecond,
    /// in an order each operation could live it (`LifeCheck`): added before
    /// it runs, stopped before it finishes, finished before its completion
    /// block; the stall and the end name only unfinished operations.
    public static let events: [LifecycleEvent] = {
        let (fetch, thumbs, parse, forgets, late, show, flush, lost) = (
            op("fetch"), op("thumbs"), op("parse"), op("forgets"), op("late"), op("show"), op("flush"), op("lost")
        )
        let (hand, idle) = (op("hand"), op("idle"))
        let (net, disk, ui) = (queue("net"), queue("disk"), queue("ui"))
        let kinds: [(LifecycleEvent.Kind, ThreadTag?)] = [
            (.queue(net, .maxConcurrentOperationCount, old: .int(-1), new: .int(2)), nil),
            (.queue(disk, .isSuspended, old: .bool(false), new: .bool(true)), nil),
            (.queue(net, .operationCount, old: nil, new: .int(0)), nil),
            (.operation(fetch, .isReady, old: nil, new: .bool(true)), nil),
            (.dispatched(fetch), nil),
            (.operation(fetch, .isExecuting, old: .bool(false), new: .bool(true)), ThreadTag(1)),
            (.operation(show, .isReady, old: nil, new: .bool(false)), nil),
            (.operation(show, .isExecuting, old: .bool(false), new: .bool(true)), .main),
            (.operation(thumbs, .isReady, old: nil, new: .bool(true)), nil),
            (.operation(lost, .isReady, old: nil, new: .bool(true)), nil),
            (.operation(lost, .isCancelled, old: .bool(false), new: .bool(true)), nil),
            (.dispatched(lost), nil),
            (.stranded(lost), nil),
            (.operation(thumbs, .queuePriority, old: .priority(.normal), new: .priority(.high)), nil),
            (.operation(late, .queuePriority, old: nil, new: .priority(.veryLow)), nil),
            (.operation(parse, .isCancelled, old: .bool(false), new: .bool(true)), nil),
            (.operation(thumbs, .isExecuting, old: .bool(false), new: .bool(true)), ThreadTag(2)),
            (.block(thumbs, index: 0, phase: .started, thread: ThreadTag(2)), nil),
            (.block(thumbs, index: 1, phase: .returned, thread: .main), nil),
            (.leftover(fetch, phase: .started), nil),
            (.operation(fetch, .isExecuting, old: .bool(true), new: .bool(false)), nil),
            (.operation(fetch, .isFinished, old: .bool(false), new: .bool(true)), nil),
            (.completion(fetch, thread: ThreadTag(12)), nil),
            (.leftover(fetch, phase: .returned), nil),
            (.action(.wait(fetch), origin: .timed(6), ignored: nil), nil),
            (.mainThreadWait(.wait(fetch), phase: .started), nil),
            (.mainThreadWait(.wait(fetch), phase: .returned), nil),
            (.action(.start(hand), origin: .timed(8), ignored: nil), nil),
            (.startCall(hand, phase: .started), nil),
            // On thread #3, not the main thread, where show never stops in this fixture.
            (.operation(hand, .isExecuting, old: .bool(false), new: .bool(true)), ThreadTag(3)),
            (.operation(hand, .isExecuting, old: .bool(true), new: .bool(false)), nil),
            (.operation(hand, .isFinished, old: .bool(false), new: .bool(true)), nil),
            (.startCall(hand, phase: .returned), nil),
            (.action(.start(idle), origin: .timed(9), ignored: .startNotReady), nil),
            (.action(.cancel(parse), origin: .timed(0), ignored: nil), nil),
            (.action(.setCap(net, .systemDefault), origin: .timed(1), ignored: nil), nil),
            (.action(.setCap(net, .limit(3)), origin: .timed(2), ignored: nil), nil),
            (.action(.setPriority(thumbs, .high), origin: .timed(3), ignored: .alreadyStarted), nil),
            (.action(.cancel(parse), origin: .timed(4), ignored: .alreadyCancelled), nil),
            (.action(.add(late), origin: .timed(5), ignored: nil), nil),
            (.action(.cancelAll(disk), origin: .completion(fetch), ignored: nil), nil),
            (.caption(0, paused: false), nil),
            (.caption(2, paused: true), nil),
            (.action(.waitAll(net), origin: .timed(7), ignored: nil), nil),
            (.mainThreadWait(.waitAll(net), phase: .started), nil),
            (.stall([parse: .queueSuspended(disk), forgets: .neverPostedFinish, show: .mainThreadBlocked]), nil),
            (.action(.suspend(disk), origin: .user, ignored: .alreadySuspended), nil),
            (.action(.resume(net), origin: .user, ignored: .notSuspended), nil),
            (.action(.setCap(net, .limit(0)), origin: .user, ignored: .capBelowOne), nil),
            (.action(.setCap(net, .limit(3)), origin: .user, ignored: .unchanged), nil),
            (.action(.suspend(ui), origin: .user, ignored: .mainQueueIgnores(.isSuspended)), nil),
            (
                .action(
                    .setCap(ui, .limit(2)), origin: .user, ignored: .mainQueueIgnores(.maxConcurrentOperationCount)),
                nil
            ),
            (.action(.cancelAll(ui), origin: .user, ignored: .mainQueueIgnores(.cancelAllOperations)), nil),
            (.action(.cancel(flush), origin: .user, ignored: .barrierHasNoHandle), nil),
            (.action(.setPriority(flush, .low), origin: .user, ignored: .barrierHasNoPriority), nil),
            (.action(.cancel(fetch), origin: .user, ignored: .alreadyFinished), nil),
            (.action(.add(late), origin: .user, ignored: .alreadyAdded), nil),
            (.action(.cancel(late), origin: .user, ignored: .noSuchOperation), nil),
            (.action(.resume(disk), origin: .user, ignored: .noSuchQueue), nil),
            (.action(.start(hand), origin: .user, ignored: .startNotReadyAsync), nil),
            (.action(.start(hand), origin: .user, ignored: .startWhileExecuting), nil),
            (.action(.start(hand), origin: .user, ignored: .startWhileExecutingAsync), nil),
            (.action(.start(flush), origin: .user, ignored: .startInAQueue), nil),
            (.caption(1, paused: false), nil),
            (
                .end(
                    .stalled([
                        parse: .waitsFor(fetch, root: fetch), show: .waitsFor(parse, root: fetch),
                        forgets: .neverPostedFinish, late: .queueSuspended(disk), flush: .unknown,
                        lost: .neverPostedFinish, idle: .notStartedByHand,
                    ])), nil
            ),
        ]
        return kinds.enumerated().map { n, kind in
            // 0.0014, 0.0507, …: between milliseconds, never going back.
            LifecycleEvent(seq: 3 * n + 1, time: Double(n) * 0.0493 + 0.0014, kind: kind.0, thread: kind.1)
        }
    }()

    /// A recording as `opscope trace --format jsonl` writes it.
    public static func recording(
        _ events: [LifecycleEvent], of scenario: Scenario = scenario, header: JSONLineEncoder.Header = header
    ) -> [UInt8] {
        JSONLineEncoder.recording(header, of: scenario, events: events)
    }

    /// The event as a recording keeps it: its time to the millisecond,
    /// rounded the way the encoder writes it.
    public static func toMillisecond(_ event: LifecycleEvent) -> LifecycleEvent {
        var copy = event
        copy.time = event.time.isFinite && event.time > 0 ? (event.time * 1000).rounded() / 1000 : 0
        return copy
    }

    /// Decodes `bytes`, recording the error as an issue.
    public static func decode(
        _ bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Recording? {
        do {
            return try RecordingDecoder.decode(bytes)
        } catch {
            Issue.record("the recording did not open: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}
