import Board
import Foundation
import LifecycleEngine
import RunEvents
import ScenarioKit
import Testing

/// `at TIME start OP` on the real engine: the thread that serves the main
/// queue calls `op.start()` (the main thread in opscope; under `swift test`
/// on Linux the thread the main actor runs on, so the tests compare threads
/// rather than name one). What each asserts is an order in the stream or a
/// fact of it, never a time; each action is at least 200 ms of real time
/// from the moment that would change what it meets (a start, an end).
@Suite(.serialized) struct StartByHandTests {
    /// The events of `name`'s start calls and flags, in stream order:
    /// `call started`, `isExecuting true`, `isFinished true`, `call returned`…
    static func life(_ name: String, in s: Stream) -> [String] {
        let op = OperationID(s.id(name))
        return s.events.compactMap { e in
            switch e.kind {
            case .startCall(op, let phase): "call \(phase.rawValue)"
            case .operation(op, let key, _, .bool(let value)) where key != .isReady: "\(key.rawValue) \(value)"
            case .operation(op, .isReady, _, _): "isReady"
            case .dispatched(op): "dispatched"
            case .completion(op, _): "completion"
            case .action(.start(op), _, let ignored): "start" + (ignored.map { " refused: \($0)" } ?? "")
            default: nil
            }
        }
    }

    static func thread(_ name: String, in s: Stream) -> ThreadTag? {
        let op = OperationID(s.id(name))
        return s.events.lazy.compactMap { e -> ThreadTag? in
            if case .operation(op, .isExecuting, _, .bool(true)) = e.kind { return e.thread }
            return nil
        }.first
    }

    @Test func mainRunsInsideTheCallOnTheMainQueueThreadAndItsDependentStartsAfter() async throws {
        let serviced = await mainQueueIsServiced()
        try #require(serviced, "the main dispatch queue is not serviced under swift test: nothing here can run")
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let ui = b.queue("ui", main: true)
        b.work("marker", on: ui, ms: 10)
        let fetch = b.work("fetch", on: net, ms: 100)
        b.work("parse", on: net, ms: 20, after: [fetch])
        b.at(50, .start(fetch))
        let s = await runChecked(b)
        #expect(s.outcome == .completed)
        #expect(
            Self.life("fetch", in: s) == [
                "start", "call started", "isExecuting true", "isExecuting false", "isFinished true", "call returned",
            ], "never added, never dispatched: started inside the call, finished before it returned")
        // The thread that called start() ran main(): one that serves the main
        // queue (which one, under swift test, varies from block to block;
        // `opscope trace` names the main thread: StartByHandTraceTests).
        let thread = try #require(Self.thread("fetch", in: s))
        let mainActorIsMainThread = await MainActor.run { Thread.isMainThread }
        #expect(thread.isMain == mainActorIsMainThread)
        #expect(try #require(s.started("parse")) > #require(s.finished("fetch")))
        let board = BoardState(scenario: b.scenario, replaying: s.events)
        #expect(board[queue: net].peak == 1, "fetch, started by hand, counts in no queue")
        #expect(board[operation: fetch].phase == .finished && board[operation: fetch].startedByHand)
    }

    @Test func aSecondStartOfAFinishedOperationDoesNothing() async throws {
        let serviced = await mainQueueIsServiced()
        try #require(serviced, "the main dispatch queue is not serviced under swift test: nothing here can run")
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let fetch = b.work("fetch", on: net, ms: 30)
        b.work("keeps-the-run-going", on: net, ms: 700)
        b.at(10, .start(fetch))
        b.at(400, .start(fetch))
        let s = await runChecked(b)
        #expect(s.outcome == .completed)
        #expect(
            Self.life("fetch", in: s) == [
                "start", "call started", "isExecuting true", "isExecuting false", "isFinished true", "call returned",
                "start", "call started", "call returned",
            ], "Foundation's start() returns at once on a finished operation: main() did not run again")
    }

    @Test func aCancelledOperationFinishesInsideTheCallWithoutRunning() async throws {
        let serviced = await mainQueueIsServiced()
        try #require(serviced, "the main dispatch queue is not serviced under swift test: nothing here can run")
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let spare = b.work("spare", on: net, ms: 50, completion: [])
        b.work("keeps-the-run-going", on: net, ms: 500)
        b.at(10, .cancel(spare))
        b.at(30, .start(spare))
        let s = await runChecked(b)
        #expect(s.outcome == .completed)
        #expect(
            Self.life("spare", in: s) == [
                "isCancelled true", "start", "call started", "isFinished true", "call returned", "completion",
            ]
                || Self.life("spare", in: s) == [
                    "isCancelled true", "start", "call started", "isFinished true", "completion", "call returned",
                ], "\(Self.life("spare", in: s))")
        // Its completion block runs on a thread of the pool, never the main thread.
        let completion = s.events.lazy.compactMap { e -> ThreadTag? in
            if case .completion(OperationID(s.id("spare")), let thread) = e.kind { return thread }
            return nil
        }.first
        #expect(completion.map { !$0.isMain } == true)
    }

    @Test func aStartBeforeItsDependencyFinishedIsRefusedAndTheRunGoesOn() async throws {
        let serviced = await mainQueueIsServiced()
        try #require(serviced, "the main dispatch queue is not serviced under swift test: nothing here can run")
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let token = b.work("token", on: net, ms: 400)
        let fetch = b.work("fetch", on: net, ms: 30, after: [token])
        b.work("parse", on: net, ms: 20, after: [fetch])
        b.at(10, .start(fetch))
        b.at(700, .start(fetch))
        let s = await runChecked(b)
        #expect(s.outcome == .completed)
        #expect(
            Self.life("fetch", in: s) == [
                "start refused: startNotReady", "start", "call started", "isExecuting true", "isExecuting false",
                "isFinished true", "call returned",
            ], "refused without a call, then called once token had finished")
        #expect(try #require(s.started("fetch")) > #require(s.finished("token")))
        #expect(try #require(s.started("parse")) > #require(s.finished("fetch")))
    }

    @Test func anAsynchronousOperationIsNotStartedAgainWhileItRuns() async throws {
        let serviced = await mainQueueIsServiced()
        try #require(serviced, "the main dispatch queue is not serviced under swift test: nothing here can run")
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let late = b.async("late", on: net, ms: 500)
        b.work("keeps-the-run-going", on: net, ms: 1000)
        b.at(10, .start(late))
        b.at(250, .start(late))
        b.at(800, .start(late))
        let s = await runChecked(b)
        #expect(s.outcome == .completed)
        #expect(
            Self.life("late", in: s) == [
                "start", "call started", "isExecuting true", "call returned", "start refused: startWhileExecutingAsync",
                "isExecuting false", "isFinished true", "start", "call started", "call returned",
            ], "its start() returns at once; a second one while it runs is refused; after its end it does nothing")
    }

    @Test func anOperationNothingStartsIsStuckWithThatReason() async throws {
        var b = ScenarioBuilder()
        let net = b.queue("net")
        let token = b.work("token", on: net, ms: 400)
        let fetch = b.work("fetch", on: net, ms: 30, after: [token])
        let parse = b.work("parse", on: net, ms: 20, after: [fetch])
        b.at(10, .start(fetch))
        let s = await runChecked(b)
        guard case .stalled(let stuck)? = s.outcome else {
            Issue.record("the run did not stall: \(String(describing: s.outcome))")
            return
        }
        #expect(stuck == [fetch: .notStartedByHand, parse: .waitsFor(fetch, root: fetch)])
        #expect(Self.life("fetch", in: s) == ["start refused: startNotReady"])
    }
}
