import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// Event streams for the history's property tests, each with its scenario.
struct HistoryStream: Sendable, CustomTestStringConvertible {
    let name: String
    let scenario: Scenario
    let events: [LifecycleEvent]

    var testDescription: String { name }

    static let all = [three, ninety, waves]

    static let three = HistoryStream(
        name: "three operations", scenario: ThreeOperations.scenario(cap: 1),
        events: ThreeOperations.script(cap: 1).events)

    static let ninety = HistoryStream(
        name: "ninety on a queue of cap 2", scenario: RunTimelineTests.scenario, events: RunTimelineTests.events)

    /// 300 operations on three queues, coming and going in waves (each
    /// added, then started 40 steps later, finished 40 after that), so a
    /// stretch of the run changes cards in a few chunks of the board: some
    /// wait for another, some are cancelled before they start, some run
    /// blocks or a completion block; on the way a caption, actions (one
    /// ignored), a suspension, a cap and a priority change, a stall and
    /// events naming an operation and a queue the scenario does not have;
    /// the run ends stalled.
    static let waves: HistoryStream = {
        let count = 300
        let queues = ["q", "r", "s"]
        let waits = { (i: Int) in i >= 3 && i % 7 == 0 }
        let runsBlocks = { (i: Int) in i % 17 == 0 }
        let scenario = makeScenario(
            queues: [QueueSpec(name: "q", cap: .limit(4)), QueueSpec(name: "r"), QueueSpec(name: "s", cap: .limit(1))],
            ops: (0..<count).map { i in
                op(
                    "o\(i)", on: queues[i % 3], after: waits(i) ? ["o\(i - 3)"] : [],
                    priority: i % 11 == 0 ? .high : nil, qos: i % 13 == 0 ? .utility : nil,
                    body: runsBlocks(i) ? .blocks([.seconds(1), .seconds(1)]) : nil)
            })
        var s = Script(scenario)
        s.cap("q", 4)
        var queued = [0, 0, 0]
        var skipped = Set<Int>()
        for step in 0..<(count + 80) {
            s.at(Double(step) / 100)
            if step < count {
                s.add("o\(step)", ready: !waits(step))
                queued[step % 3] += 1
                s.count(queues[step % 3], queued[step % 3], old: queued[step % 3] - 1)
            }
            let starting = step - 40
            if (0..<count).contains(starting) {
                if waits(starting) { s.ready("o\(starting)") }
                if starting % 19 == 5 {
                    s.skip("o\(starting)")
                    skipped.insert(starting)
                } else {
                    s.start("o\(starting)", thread: 1 + step % 4)
                    if runsBlocks(starting) { s.block("o\(starting)", 0, .started) }
                }
            }
            let finishing = step - 80
            if (0..<count).contains(finishing), !skipped.contains(finishing) {
                if runsBlocks(finishing) {
                    s.block("o\(finishing)", 0, .returned)
                    s.block("o\(finishing)", 1, .started, thread: 2)
                    s.block("o\(finishing)", 1, .returned, thread: 2)
                }
                s.finish("o\(finishing)")
                if finishing % 5 == 0 { s.completion("o\(finishing)") }
                queued[finishing % 3] -= 1
                s.count(queues[finishing % 3], queued[finishing % 3], old: queued[finishing % 3] + 1)
            }
            switch step {
            case 100:
                s.emit(.caption(0, paused: true))
            case 150:
                s.emit(.action(.suspend(s.qid("r")), origin: .user, ignored: nil))
                s.suspended("r", true)
            case 160:
                s.emit(.action(.cancel(s.id("o3")), origin: .timed(0), ignored: .alreadyFinished))
                s.suspended("r", false)
                s.cap("s", 2, old: 1)
            case 200:
                s.emit(.stall([s.id("o150"): .queueSuspended(s.qid("q")), s.id("o160"): .neverPostedFinish]))
            case 210:
                s.priority("o290", .veryHigh)
            case 220:
                s.emit(.operation(OperationID(count + 5), .isReady, old: nil, new: .bool(true)))
                s.emit(.queue(QueueID(9), .operationCount, old: .int(0), new: .int(1)))
                s.emit(.block(OperationID(-1), index: 0, phase: .started, thread: ThreadTag(1)))
            default:
                break
            }
        }
        s.end(.stalled([s.id("o299"): .unknown]))
        return HistoryStream(name: "waves of 300 on three queues", scenario: scenario, events: s.events)
    }()
}

/// How a history under test is kept: its interval and how many changes
/// it keeps before a whole board (nil: the defaults).
struct HistoryKeeping: Sendable, CustomTestStringConvertible {
    let interval: Int?
    let changesBetweenBoards: Int?

    var testDescription: String {
        "interval \(interval.map(String.init) ?? "default"), "
            + "changes between boards \(changesBetweenBoards.map(String.init) ?? "default")"
    }

    static let all = [
        HistoryKeeping(interval: 1, changesBetweenBoards: nil),
        HistoryKeeping(interval: 5, changesBetweenBoards: 0),
        HistoryKeeping(interval: 5, changesBetweenBoards: 7),
        HistoryKeeping(interval: 16, changesBetweenBoards: Int.max),
        HistoryKeeping(interval: 64, changesBetweenBoards: nil),
        HistoryKeeping(interval: nil, changesBetweenBoards: nil),
        HistoryKeeping(interval: nil, changesBetweenBoards: 0),
    ]
}
