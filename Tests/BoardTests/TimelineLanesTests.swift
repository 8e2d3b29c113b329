import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// What the thread view reads from the lanes: the blocks of a `blocks`
/// operation, the completion blocks, and the threads in the order the run
/// first used them.
@Suite struct TimelineLanesTests {
    static let scenario = makeScenario(
        queues: [QueueSpec(name: "images"), QueueSpec(name: "ui", isMain: true)],
        ops: [
            op("thumbs", on: "images", body: .blocks([.milliseconds(400), .milliseconds(400)])),
            op("show", on: "ui", after: ["thumbs"]),
        ])

    static func script() -> Script {
        var s = Script(scenario)
        s.add("thumbs")
        s.add("show", ready: false)
        s.start("thumbs", thread: 2)
        s.block("thumbs", 0, .started, thread: 2)
        s.at(0.4)
        s.block("thumbs", 0, .returned, thread: 2)
        s.block("thumbs", 1, .started, thread: 2)
        s.at(0.8)
        s.block("thumbs", 1, .returned, thread: 2)
        s.finish("thumbs")
        s.ready("show")
        s.completion("thumbs", thread: 1)
        s.start("show", thread: 0)
        s.at(1)
        s.finish("show")
        s.completion("show", thread: 2)
        return s
    }

    @Test func blocksAreRecordedWithTheirThreadsAndTimes() {
        let lanes = TimelineLanes(scenario: Self.scenario, events: Self.script().events)
        #expect(
            lanes.lanes[0].blocks == [
                TimelineLanes.BlockRun(index: 0, thread: ThreadTag(2), started: 0, returned: 0.4),
                TimelineLanes.BlockRun(index: 1, thread: ThreadTag(2), started: 0.4, returned: 0.8),
            ])
        #expect(lanes.lanes[1].blocks.isEmpty)
    }

    @Test func aBlockStillRunningHasNoReturnYet() {
        let events = Self.script().events.prefix(7)
        let lanes = TimelineLanes(scenario: Self.scenario, events: events)
        #expect(lanes.lanes[0].blocks.last == TimelineLanes.BlockRun(index: 1, thread: ThreadTag(2), started: 0.4))
    }

    @Test func completionBlocksAreRecordedInTheOrderTheyRan() {
        let lanes = TimelineLanes(scenario: Self.scenario, events: Self.script().events)
        #expect(
            lanes.completions == [
                TimelineLanes.Completion(operation: OperationID(0), time: 0.8, thread: ThreadTag(1)),
                TimelineLanes.Completion(operation: OperationID(1), time: 1, thread: ThreadTag(2)),
            ])
    }

    @Test func threadsAreListedInTheOrderTheRunFirstUsedThem() {
        let lanes = TimelineLanes(scenario: Self.scenario, events: Self.script().events)
        #expect(lanes.threads.map(\.tag) == [ThreadTag(2), ThreadTag(1), .main])
        #expect(lanes.threads.map(\.firstSeen) == [0, 0.8, 0.8])
        #expect(lanes.lanes[1].thread == .main)
    }
}
