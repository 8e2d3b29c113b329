import Board
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

/// What one caption of the library says of the board, checked where it
/// shows: a card's column, a flag, a queue's state.
enum CaptionClaim: CustomStringConvertible, Sendable {
    /// In Executing, holding a thread (not waiting for one).
    case running([String])
    /// In Ready, not dispatched.
    case ready([String])
    case pending([String])
    case finished([String])
    /// Finished with `isCancelled` true (after running or not).
    case cancelled([String])
    /// Cancelled before it started: finished without running.
    case skipped([String])
    /// `isCancelled` true, not finished yet.
    case flagged([String])
    /// `isCancelled` true, finished or not.
    case cancelFlag([String])
    case notAdded([String])
    case suspended(String)
    case notSuspended(String)
    /// How many of the queue's operations hold a slot of its cap (executing
    /// or dispatched and waiting for a thread).
    case holding(String, Int)
    /// How many of the queue's operations are in `phase`; for `.ready`,
    /// those its queue has not dispatched (as `ready` says): one dispatched
    /// and waiting for a thread holds a slot (`holding`), and whether it
    /// has its thread yet is up to libdispatch.
    case count(String, Phase, Int)
    case completionRan(String)
    /// Work its `main()` left running runs on (`leaves`).
    case leftoverRunning(String)

    var description: String {
        switch self {
        case .running(let n): "running \(n)"
        case .ready(let n): "ready \(n)"
        case .pending(let n): "pending \(n)"
        case .finished(let n): "finished \(n)"
        case .cancelled(let n): "cancelled \(n)"
        case .skipped(let n): "skipped \(n)"
        case .flagged(let n): "flagged \(n)"
        case .cancelFlag(let n): "isCancelled \(n)"
        case .notAdded(let n): "not added \(n)"
        case .suspended(let q): "\(q) suspended"
        case .notSuspended(let q): "\(q) not suspended"
        case .holding(let q, let n): "\(q) holds \(n)"
        case .count(let q, let p, let n): "\(q) has \(n) \(p)"
        case .completionRan(let n): "completion of \(n) ran"
        case .leftoverRunning(let n): "the work \(n)'s main() left runs on"
        }
    }

    /// The names of what does not hold on `board`; empty when it holds.
    func failures(on board: BoardState) -> [String] {
        let scenario = board.scenario
        func card(_ name: String) -> OperationCard? { scenario.operationID(named: name).map { board[operation: $0] } }
        func row(_ name: String) -> QueueRow? { scenario.queueID(named: name).map { board[queue: $0] } }
        func each(_ names: [String], _ test: (OperationCard) -> Bool) -> [String] {
            names.filter { name in card(name).map { !test($0) } ?? true }
        }
        switch self {
        case .running(let n): return each(n) { $0.phase == .executing && $0.isExecuting }
        case .ready(let n): return each(n) { $0.phase == .ready && !$0.isWaitingForThread }
        case .pending(let n): return each(n) { $0.phase == .pending }
        case .finished(let n): return each(n) { $0.phase == .finished }
        case .cancelled(let n): return each(n) { $0.phase == .cancelled }
        case .skipped(let n): return each(n) { $0.wasSkipped }
        case .flagged(let n): return each(n) { $0.isCancelled && !$0.isFinished }
        case .cancelFlag(let n): return each(n) { $0.isCancelled }
        case .notAdded(let n): return each(n) { $0.phase == .notAdded }
        case .suspended(let q): return row(q)?.isSuspended == true ? [] : [q]
        case .notSuspended(let q): return row(q)?.isSuspended == false ? [] : [q]
        case .holding(let q, let n):
            guard let r = row(q) else { return [q] }
            return r.executing + r.waitingForThread == n ? [] : ["\(q): \(r.executing + r.waitingForThread)"]
        case .count(let q, let phase, let n):
            guard let r = row(q) else { return [q] }
            let found = board.cards.filter {
                $0.queue == r.id && $0.phase == phase && !(phase == .ready && $0.isWaitingForThread)
            }.count
            return found == n ? [] : ["\(q): \(found)"]
        case .completionRan(let n): return each([n]) { $0.completionRan }
        case .leftoverRunning(let n): return each([n]) { $0.leftoverRunning }
        }
    }
}

/// Every caption of the library is true of the board where the learner
/// reads it: each scenario run as a lesson (`LessonRun`), and at each
/// caption the board its text describes. A caption added to the library
/// without its claims here fails.
@Suite("the library's captions are true where they show", .serialized)
struct LessonCaptionTests {
    typealias C = CaptionClaim

    /// Per library file, per caption (its text's start): what it says.
    static let claims: [String: [(String, [CaptionClaim])]] = [
        "01-chain.ops": [
            ("fetch runs alone", [.running(["fetch"]), .pending(["decode", "save"])]),
            ("fetch has finished", [.finished(["fetch"]), .running(["decode"]), .pending(["save"])]),
            ("save has finished", [.finished(["save"]), .completionRan("save")]),
        ],
        "02-cap.ops": [
            ("all six were Ready", [.running(["d1", "d2"]), .ready(["d3", "d4", "d5", "d6"])]),
            ("two have finished", [.finished(["d1", "d2"]), .running(["d3", "d4"]), .ready(["d5", "d6"])]),
            ("the last two run", [.running(["d5", "d6"]), .count("downloads", .ready, 0)]),
        ],
        "03-cancel.ops": [
            ("queued is cancelled", [.running(["first"]), .ready(["queued"]), .flagged(["queued"])]),
            (
                "polite and stubborn are cancelled",
                [.cancelled(["polite"]), .running(["stubborn"]), .flagged(["stubborn"])]
            ),
            ("queued finishes without running", [.skipped(["queued"]), .running(["dependent"])]),
            ("stubborn ran its full", [.cancelled(["stubborn"])]),
        ],
        "04-async.ops": [
            ("four run at once", [.running(["dl1", "dl2", "dl3", "dl4"]), .ready(["dl5", "dl6", "dl7", "dl8"])]),
            // dl2 to dl4 end at the same moment, before or after dl1.
            ("dl1 posts isFinished", [.finished(["dl1"]), .holding("net", 4)]),
            ("the second four run", [.running(["dl5", "dl6", "dl7", "dl8"]), .count("net", .ready, 0)]),
        ],
        "05-priority.ops": [
            ("all four are Ready", [.ready(["low-one", "normal-one", "high-one", "urgent"]), .suspended("q")]),
            (
                "q resumed with all four Ready",
                [.notSuspended("q"), .running(["urgent"]), .ready(["low-one", "normal-one", "high-one"])]
            ),
            (
                "urgent (veryHigh) is done",
                [.finished(["urgent"]), .running(["high-one"]), .ready(["low-one", "normal-one"])]
            ),
            ("low-one, added first", [.running(["low-one"]), .finished(["normal-one", "high-one", "urgent"])]),
        ],
        "06-forgotten-finish.ops": [
            ("broken was Ready at once", [.running(["broken"]), .pending(["next"])]),
            ("broken's 300ms of work", [.running(["broken"]), .pending(["next"])]),
        ],
        "07-barrier.ops": [
            ("the cap is 3", [.running(["write1", "write2"]), .pending(["flush", "read1", "read2"])]),
            ("write1 is done", [.finished(["write1"]), .running(["write2"]), .pending(["flush"])]),
            ("flush runs alone", [.running(["flush"]), .holding("disk", 1), .finished(["write1", "write2"])]),
            ("flush is done", [.finished(["flush"]), .running(["read1", "read2"])]),
        ],
        "08-main-queue.ops": [
            ("load runs on the background queue", [.running(["load"]), .pending(["show"])]),
            ("load is halfway through", [.running(["load"]), .pending(["show"])]),
            ("show ran on the main thread", [.finished(["load", "show"])]),
        ],
        "10-default-cap.ops": [
            (
                "all six on wide run at once",
                [.running(["w1", "w2", "w3", "w4", "w5", "w6"]), .holding("one-lane", 1)]
            ),
            ("s1 is done", [.finished(["s1"]), .running(["s2"]), .ready(["s3", "s4"]), .holding("one-lane", 1)]),
            ("s4 is done", [.finished(["s1", "s2", "s3", "s4"])]),
        ],
        "11-serial-is-not-fifo.ops": [
            (
                "lane is suspended",
                [.suspended("lane"), .ready(["second", "rush"]), .pending(["first"]), .running(["slow"])]
            ),
            ("lane resumed: rush", [.running(["rush"]), .ready(["second"]), .pending(["first"])]),
            ("rush is done", [.finished(["rush"]), .running(["second"]), .pending(["first"])]),
            ("lane is idle", [.holding("lane", 0), .pending(["first"]), .running(["slow"])]),
            ("slow is done", [.finished(["slow"]), .running(["first"])]),
        ],
        "12-priority-rules.ops": [
            (
                "both queues are suspended",
                [.suspended("lane"), .suspended("side"), .ready(["plain", "prep"]), .pending(["urgent"])]
            ),
            ("plain (normal) beats prep", [.running(["plain"]), .ready(["prep"]), .pending(["urgent"])]),
            ("elsewhere (veryLow) runs beside plain", [.running(["elsewhere", "plain"])]),
            ("prep is done", [.finished(["prep", "plain", "elsewhere"]), .running(["urgent"])]),
        ],
        "13-qos-becomes-priority.ops": [
            (
                "the six were added under cap 2",
                [.ready(["bg", "util", "plain", "marked", "init", "ui"]), .notAdded(["late-ui"]), .suspended("lane")]
            ),
            ("late-ui is added now", [.ready(["late-ui"]), .suspended("lane")]),
            ("lane is still suspended", [.suspended("lane"), .count("lane", .ready, 7)]),
            ("lane resumed: ui goes first", [.running(["ui"]), .count("lane", .ready, 6)]),
            ("late-ui runs after plain", [.running(["late-ui"]), .finished(["plain", "init", "ui"])]),
            ("marked starts last", [.running(["marked"]), .count("lane", .finished, 6)]),
        ],
        "14-diamond.ops": [
            ("fetch runs alone", [.running(["fetch"]), .pending(["thumbs", "parse", "save"])]),
            ("fetch is done", [.finished(["fetch"]), .running(["thumbs", "parse"]), .pending(["save"])]),
            ("thumbs is done", [.finished(["thumbs"]), .running(["parse"]), .pending(["save"])]),
            ("parse, the slower of the two", [.finished(["parse", "thumbs"]), .running(["save"])]),
        ],
        "15-fan-out-fan-in.ops": [
            ("login runs", [.running(["login"]), .pending(["img1", "img2", "img3", "img4", "merge"])]),
            (
                "login is done",
                [.finished(["login"]), .holding("net", 2), .count("net", .ready, 2), .pending(["merge"])]
            ),
            ("the last two downloads run", [.holding("net", 2), .count("net", .finished, 3), .pending(["merge"])]),
            ("merge starts only now", [.running(["merge"]), .finished(["img1", "img2", "img3", "img4"])]),
        ],
        "16-across-queues.ops": [
            ("audit, added at 200ms", [.running(["audit", "download"]), .pending(["parse", "save"])]),
            ("download, on net, is done", [.finished(["download"]), .running(["parse", "audit"])]),
            ("parse is done", [.finished(["parse"]), .ready(["save"]), .running(["audit"])]),
            ("audit is done", [.finished(["audit"]), .running(["save"])]),
        ],
        "17-hundred-downloads-async.ops": [
            (
                "four run and 96 wait",
                [.running(["dl001", "dl002", "dl003", "dl004"]), .count("downloads", .ready, 96)]
            ),
            ("dl001 posts isFinished", [.finished(["dl001"]), .holding("downloads", 4)]),
            ("Executing never holds more than four", [.holding("downloads", 4)]),
            ("dl100, the last one added, starts", [.running(["dl100"]), .count("downloads", .ready, 0)]),
        ],
        "18-hundred-downloads-sync.ops": [
            ("the queue dispatched four", [.holding("downloads", 4), .count("downloads", .ready, 96)]),
            ("Executing never passes four", [.holding("downloads", 4)]),
            ("dl100, the last one added, starts", [.running(["dl100"]), .count("downloads", .ready, 0)]),
        ],
        "19-cancel-before-start.ops": [
            ("download runs", [.running(["download"]), .pending(["parse", "save"])]),
            ("parse is cancelled while it waits", [.skipped(["parse"]), .running(["save", "download"])]),
            ("save runs while download still runs", [.running(["save", "download"]), .skipped(["parse"])]),
            ("download finishes last", [.finished(["download", "save"])]),
        ],
        "20-cancel-is-a-flag.ops": [
            (
                "polite and stubborn both run",
                [.running(["polite", "stubborn"]), .pending(["after-polite", "after-stubborn"])]
            ),
            (
                "polite saw isCancelled",
                [.cancelled(["polite"]), .running(["after-polite", "stubborn"]), .flagged(["stubborn"])]
            ),
            ("stubborn runs on", [.running(["stubborn"]), .flagged(["stubborn"]), .pending(["after-stubborn"])]),
            ("stubborn ran its full 1.2s", [.cancelled(["stubborn"]), .running(["after-stubborn"])]),
        ],
        "21-cancel-all.ops": [
            ("d1 and d2 run, four wait", [.running(["d1", "d2"]), .ready(["d3", "d4", "d5", "d6"])]),
            ("all six are cancelled", [.flagged(["d1", "d2"]), .running(["d1", "d2"])]),
            // late takes the slot of the first of d1 and d2 to end; the
            // other may end a moment later.
            (
                "late, added after the cancel",
                [.running(["late"]), .cancelled(["d3", "d4", "d5", "d6"]), .cancelFlag(["d1", "d2"])]
            ),
        ],
        "22-cancel-after-the-fifth.ops": [
            ("ten operations in a chain", [.running(["e1"]), .count("chain", .pending, 9)]),
            ("e5 runs", [.running(["e5"]), .finished(["e1", "e2", "e3", "e4"])]),
            // The completion block's loop goes on while the lesson waits.
            ("e5's completion block cancels", [.finished(["e5"]), .cancelFlag(["e6", "e7", "e8", "e9", "e10"])]),
        ],
        "23-suspend-resume.ops": [
            ("downloads is suspended", [.suspended("downloads"), .running(["d1", "d2"]), .ready(["d3", "d4"])]),
            (
                "d1 and d2 are done",
                [.finished(["d1", "d2", "stopwatch"]), .ready(["d3", "d4"]), .suspended("downloads")]
            ),
            ("downloads resumes", [.notSuspended("downloads"), .running(["d3", "d4"])]),
        ],
        "24-async-right-and-wrong.ops": [
            ("good and bad both run", [.running(["good", "bad"]), .pending(["good-parse", "bad-parse"])]),
            ("good posts isFinished", [.finished(["good"]), .running(["good-parse"]), .pending(["bad-parse"])]),
            ("bad's 500ms are over", [.running(["bad"]), .pending(["bad-parse"])]),
        ],
        "25-block-operation.ops": [
            ("thumbs runs its first block", [.running(["thumbs", "wallclock"]), .pending(["upload"])]),
            ("wallclock (800ms) is done", [.finished(["wallclock"]), .running(["thumbs"]), .pending(["upload"])]),
            ("thumbs took 1.2s", [.finished(["thumbs"]), .running(["upload"])]),
        ],
        "26-completion-blocks.ops": [
            ("fine runs first", [.running(["fine"]), .pending(["show"])]),
            ("show ran on the main thread", [.finished(["show"]), .completionRan("show")]),
            ("hung is asynchronous", [.running(["hung"])]),
            // Both are cancelled, as the caption says. interrupted stops at
            // its next look at the flag, before the pause or after it, and
            // never-ran finishes without running only once it has: either
            // may still be in a column before Finished here.
            ("never-ran (waiting) and interrupted", [.cancelFlag(["interrupted", "never-ran"])]),
        ],
        "27-main-queue-freeze.ops": [
            ("freeze returns after 2s", [.finished(["freeze", "background"])]),
            ("after ran only once freeze", [.finished(["after"])]),
        ],
        "29-cancel-does-not-reach-the-task.ops": [
            ("video and photo are both downloading", [.running(["video", "photo"]), .pending(["thumb", "poster"])]),
            ("photo cancelled its own task", [.cancelled(["photo"]), .running(["thumb"]), .flagged(["video"])]),
            ("video was cancelled at 500ms too", [.flagged(["video"]), .running(["video"]), .pending(["poster"])]),
            ("video's task is over only now", [.cancelled(["video"]), .running(["poster"])]),
        ],
        "33-start-by-hand.ops": [
            ("start() at 100ms was not called", [.running(["token"]), .notAdded(["fetch"]), .pending(["parse"])]),
            ("fetch's main() ran on the main thread", [.finished(["token", "fetch"])]),
            ("parse, on net, starts only now", [.finished(["fetch"]), .running(["parse"])]),
            ("start() at 1.2s did nothing", [.finished(["token", "fetch"]), .running(["parse"])]),
        ],
        "34-completion-hand-off.ops": [
            // produce's block may have run or not: the caption asks, the log answers.
            ("consume started", [.finished(["produce"]), .running(["consume"]), .pending(["consume2"])]),
            ("consume2 starts only now", [.completionRan("produce2"), .running(["consume2"]), .pending(["tidy"])]),
        ],
        "35-one-call-or-one-by-one.ops": [
            (
                "one call: the queue saw all three",
                [
                    .running(["batch-top"]), .ready(["batch-normal", "batch-low"]),
                    .notAdded(["alone-normal", "alone-low", "alone-top"]),
                ]
            ),
            ("batch-top is done", [.finished(["batch-top"]), .running(["batch-normal"]), .ready(["batch-low"])]),
            (
                "one add at a time",
                [.running(["alone-normal"]), .finished(["batch-top", "batch-normal", "batch-low"])]
            ),
            (
                "alone-low and alone-top now wait together",
                [.finished(["alone-normal"]), .running(["alone-top"]), .ready(["alone-low"])]
            ),
        ],
        "32-forgets-when-cancelled.ops": [
            (
                "fetch2's start() saw isCancelled and posted isFinished",
                [.skipped(["fetch2"]), .running(["next2"]), .flagged(["fetch"]), .pending(["show"])]
            ),
            (
                "fetch's start() saw isCancelled too",
                [.flagged(["fetch"]), .pending(["show"]), .ready(["next"]), .finished(["first", "first2"])]
            ),
        ],
        "31-main-returns-before-its-work.ops": [
            (
                "download's main() returned and Foundation finished it",
                [.finished(["download"]), .running(["parse"]), .leftoverRunning("download")]
            ),
            (
                "cancel(download) at 500ms was ignored",
                [.finished(["download"]), .cancelled(["thumbnail"]), .leftoverRunning("download")]
            ),
        ],
        "36-operation-or-gcd.ops": [
            ("net runs two at a time", [.running(["fetch1", "fetch2"]), .ready(["fetch3"]), .pending(["save"])]),
            ("the cap went from 2 to 3", [.running(["fetch1", "fetch2", "fetch3"]), .pending(["save"])]),
            (
                "all three finished, fetch2 cancelled",
                [.finished(["fetch1", "fetch3"]), .cancelled(["fetch2"]), .running(["save"])]
            ),
        ],
        "28-live-changes.ops": [
            ("a1 runs", [.running(["a1"]), .ready(["a2", "a3", "a4"])]),
            ("a1 is done", [.finished(["a1"]), .running(["a4"]), .ready(["a2", "a3"])]),
            ("the cap went from 1 to 2", [.running(["a2", "a3"])]),
        ],
    ]

    @Test func everyLibraryFileHasItsClaims() {
        #expect(Set(Self.claims.keys) == Set(Library.inProcess))
    }

    /// Each file twice: with the state reader, and without it (turned off,
    /// or not trustworthy on a Foundation), where the captions about a
    /// dispatch are withheld and every other must still be true.
    @Test(arguments: Library.inProcess, [true, false])
    func eachCaptionIsTrueWhereItShows(_ file: String, observingDispatches: Bool) async throws {
        let scenario = try Library.scenario(file)
        let claims = try #require(Self.claims[file])
        #expect(
            claims.count == scenario.captions.count,
            "\(file) has \(scenario.captions.count) captions and \(claims.count) sets of claims")
        let texts = scenario.captions.map(\.text)
        let reader = observingDispatches ? EngineState.shared : nil
        let lesson = await LessonRun.run(scenario, stateReader: reader) { index, board in
            guard let (_, said) = claims.first(where: { texts[index].hasPrefix($0.0) }) else { return true }
            return said.allSatisfy { $0.failures(on: board).isEmpty }
        }
        let shown = scenario.captions.filter { observingDispatches || !$0.claimsDispatches }
        #expect(lesson.stops.count == shown.count, "\(file): every caption is reached")
        #expect(lesson.stops.map(\.text).allSatisfy { text in shown.contains { $0.text == text } })
        for stop in lesson.stops {
            guard let (_, said) = claims.first(where: { stop.text.hasPrefix($0.0) }) else {
                Issue.record("\(file): no claims for the caption “\(stop.text)”")
                continue
            }
            for claim in said {
                let wrong = claim.failures(on: stop.board)
                #expect(wrong.isEmpty, "\(file), “\(stop.text.prefix(40))…”: \(claim) — not so for \(wrong)")
            }
        }
    }
}
