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

    /// Asynchronous operations on `a` (and one on `b`): in flight, each takes
    /// the lowest row of its queue free when it starts.
    @Test func asynchronousOperationsArePackedIntoTheFewestRowsPerQueue() {
        let names = ["x1", "x2", "x3", "x4", "x5", "x6"]
        let scenario = makeScenario(
            queues: [QueueSpec(name: "a"), QueueSpec(name: "b")],
            ops: names.map { op($0, on: "a", body: .async(.seconds(1))) } + [
                op("y", on: "b", body: .async(.seconds(1))), op("sync", on: "a"),
            ])
        let id = { (name: String) in scenario.operationID(named: name)! }
        var s = Script(scenario)
        for name in names + ["y", "sync"] { s.add(name) }
        s.start("x1", thread: 1)
        s.start("x2", thread: 1)
        s.start("y", thread: 2)
        s.start("sync", thread: 2)
        s.at(0.5)
        // x1's row is free the moment it stops: x3 takes it.
        s.finish("x1")
        s.start("x3", thread: 1)
        s.at(0.6)
        s.finish("x2")
        s.at(0.7)
        s.start("x4", thread: 1)  // row 2, free since 0.6
        // x4 in flight for no time at all: in that microsecond its row is
        // not free yet (a viewer would draw it inside the next one).
        s.finish("x4")
        s.start("x5", thread: 1)  // row 3
        s.at(0.8)
        s.start("x6", thread: 1)  // row 2 again
        let lanes = TimelineLanes(scenario: scenario, events: s.events)
        #expect(lanes.inFlight.map(\.queue) == [QueueID(0), QueueID(0), QueueID(1), QueueID(0)])
        #expect(lanes.inFlight.map(\.number) == [1, 2, 1, 3])
        #expect(
            lanes.inFlight.map(\.operations) == [
                [id("x1"), id("x3")], [id("x2"), id("x4"), id("x6")], [id("y")], [id("x5")],
            ])
        #expect(names.map { lanes.lanes[id($0).index].inFlightRow } == [0, 1, 0, 1, 3, 1])
        #expect(lanes.lanes[id("sync").index].inFlightRow == nil)
        #expect(lanes.lanes[id("x1").index].thread == ThreadTag(1))
    }
}
