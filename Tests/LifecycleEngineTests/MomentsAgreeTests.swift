import Board
import EventFixtures
import Foundation
import LifecycleEngine
import RunEvents
import RunFormats
import ScenarioKit
import Testing
import TextKit

/// One definition of each moment of an operation's life serves every
/// reader of a run: the expectations and the quiz (`RunTimeline`), the
/// board's cards, the timeline and the thread view (`TimelineLanes`), and
/// the chrome export place each operation's add, ready, dispatch, start,
/// stop, finish and cancel at the same moment, in every library run.
@Suite("every reader places a moment alike")
struct MomentsAgreeTests {
    @Test(arguments: Library.offTheMainQueue)
    func everyReaderPlacesEachMomentAlike(_ file: String) async throws {
        let scenario = try Library.scenario(file)
        let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 20))
        run.start()
        let events = await run.ended(timeout: 60)
        run.stop()
        let timeline = RunTimeline(scenario: scenario, events: events)
        let lanes = TimelineLanes(scenario: scenario, events: events)
        let board = BoardState(scenario: scenario, replaying: events)
        var chrome = ChromeTraceEncoder(scenario: scenario)
        var bytes: [UInt8] = []
        chrome.appendHeader(to: &bytes)
        for event in events { chrome.append(event, to: &bytes) }
        chrome.appendFooter(to: &bytes)
        let check = ChromeTraceCheck(json: Data(bytes), queues: scenario.queues.map(\.name))
        let args = Self.arguments(Data(bytes))
        for (i, spec) in scenario.operations.enumerated() {
            let op = OperationID(i)
            let facts = timeline[op].moments
            let lane = lanes.lanes[i].moments
            #expect(lane == facts, "\(file): \(spec.name)'s lane and facts")
            let card = board[operation: op]
            #expect(card.addedAt == facts.added?.time, "\(file): \(spec.name) added")
            #expect(card.dispatchedAt == facts.dispatched?.time, "\(file): \(spec.name) dispatched")
            #expect(card.startedAt == facts.started?.time, "\(file): \(spec.name) started")
            #expect(card.finishedAt == facts.finished?.time, "\(file): \(spec.name) finished")
            #expect(card.thread == facts.thread, "\(file): \(spec.name) thread")
            // The chrome export: the execution slice's args say the
            // moments before it, to the millisecond, and it runs from the
            // start to the stop (a microsecond's shift keeps slices of one
            // microsecond apart: within one).
            guard let started = facts.started, !spec.isBarrier else { continue }
            let mine = args[spec.name] ?? [:]
            for (key, moment) in [
                ("added_s", facts.added), ("ready_s", facts.ready), ("dispatched_s", facts.dispatched),
            ] {
                #expect(
                    mine[key] == moment.map { Spelling.secondsNumber($0.time) },
                    "\(file): \(spec.name) \(key) \(mine[key] ?? "-")")
            }
            let slices = check.slices.filter { $0.isExecution && $0.operation == spec.name }
            let slice = try #require(slices.first, "\(file): \(spec.name) has an execution slice")
            #expect(abs(slice.start - Self.microseconds(started.time)) <= 1, "\(file): \(spec.name) slice start")
            if let stopped = facts.stopped {
                #expect(abs(slice.end - Self.microseconds(stopped.time)) <= 2, "\(file): \(spec.name) slice end")
            }
        }
    }

    static func microseconds(_ seconds: Double) -> Int { Int((seconds * 1_000_000).rounded()) }

    /// Each operation's slice args, as text: `added_s`, `ready_s`,
    /// `dispatched_s`, by operation name.
    static func arguments(_ json: Data) -> [String: [String: String]] {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let events = object["traceEvents"] as? [[String: Any]]
        else { return [:] }
        var found: [String: [String: String]] = [:]
        let executions: Set<String> = ["operation", "asynchronous operation"]
        for event in events where event["ph"] as? String == "X" && executions.contains(event["cat"] as? String ?? "") {
            guard let args = event["args"] as? [String: Any], let name = event["name"] as? String,
                args["queue"] != nil, found[name] == nil
            else { continue }
            var moments: [String: String] = [:]
            for key in ["added_s", "ready_s", "dispatched_s"] {
                if let value = args[key] as? Double { moments[key] = Spelling.secondsNumber(value) }
            }
            found[name] = moments
        }
        return found
    }
}
