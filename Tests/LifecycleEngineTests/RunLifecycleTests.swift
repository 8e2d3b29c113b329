import Foundation
import LifecycleEngine
import ScenarioKit
import Testing

/// The library, read from `scenarios/` at the package root.
enum Library {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every `scenarios/*.ops` file name, in name order.
    static let fileNames: [String] = {
        let folder = root.appendingPathComponent("scenarios").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".ops") }.sorted()
    }()

    /// The files whose scenarios have no `main` queue and make no call on
    /// the main thread (`start`, `wait`): their runs end in a test runner,
    /// which need not service the main queue.
    static let offTheMainQueue = fileNames.filter { file in
        guard let scenario = try? scenario(file) else { return false }
        return !scenario.queues.contains(where: \.isMain)
            && !scenario.actions.contains(where: \.action.isMainThreadCall)
    }

    /// The files whose runs a test runner can hold: not those that make
    /// the main thread wait (`at TIME wait OP`), which may block it for good
    /// (the runner's own main thread); their runs are tested as a user
    /// makes them, in a process of their own (`trace`, the interface).
    static let inProcess = fileNames.filter { file in
        (try? scenario(file))?.actions.contains(where: \.action.isMainThreadWait) == false
    }

    static func scenario(_ fileName: String) throws -> Scenario {
        let path = root.appendingPathComponent("scenarios/\(fileName)").path
        let data = try #require(FileManager.default.contents(atPath: path))
        let result = ScenarioReader.read(SourceFile(path: path, bytes: Array(data)))
        return try #require(result.scenario, "\(fileName) has errors")
    }
}

/// The life of a run as the interface drives it: a run created and dropped
/// before it starts (the view replaced it), started and stopped mid-run
/// (quit, restart), stopped after its end, stopped twice. None may crash,
/// leave an engine thread waiting or record an event after `stop()`.
@Suite("run lifecycle")
struct RunLifecycleTests {
    @Test func theLibraryIsThere() {
        #expect(Library.fileNames.count >= 27)
    }

    @Test("created and dropped, never started", arguments: Library.inProcess)
    func createdAndDropped(_ file: String) throws {
        let scenario = try Library.scenario(file)
        weak var dropped: ScenarioRun?
        do {
            let run = ScenarioRun(scenario: scenario)
            dropped = run
            #expect(run.events.isEmpty)
        }
        #expect(dropped == nil, "the run outlived its last reference")
    }

    @Test("stopped before it started: start() then does nothing", arguments: Library.inProcess)
    func stoppedBeforeStart(_ file: String) throws {
        let run = ScenarioRun(scenario: try Library.scenario(file))
        run.stop()
        run.start()
        #expect(run.hasEnded)
        #expect(run.events.isEmpty)
        #expect(run.perform(.probe) == false)
        run.stop()
    }

    @Test("started, stopped mid-run (quit or restart), then a new run to its end", arguments: Library.inProcess)
    func quitMidRunThenRestart(_ file: String) async throws {
        let scenario = try Library.scenario(file)
        do {
            let first = ScenarioRun(scenario: scenario, options: RunOptions(speed: 4))
            first.start()
            try await Task.sleep(for: .milliseconds(30))
            first.stop()
            let atStop = first.events.count
            #expect(first.hasEnded)
            #expect(first.perform(.probe) == false)
            try await Task.sleep(for: .milliseconds(50))
            #expect(first.events.count == atStop, "events were recorded after stop()")
        }
        let second = ScenarioRun(scenario: scenario, options: RunOptions(speed: 16))
        second.start()
        let events = await second.ended(timeout: 60)
        second.stop()
        second.stop()
        let hasMainWork =
            scenario.queues.contains(where: \.isMain) || scenario.actions.contains(where: \.action.isMainThreadCall)
        if !hasMainWork {
            // A main-queue operation, or a call of the main thread, runs only
            // where the main queue is serviced, which a test runner need not do.
            guard case .end = events.last?.kind else {
                Issue.record("\(file) did not end")
                return
            }
            expectCleanStream(events, scenario)
        }
    }

    @Test("paused from the start, then stopped: nothing ran, nothing is left waiting", arguments: Library.inProcess)
    func pausedThenStopped(_ file: String) throws {
        let run = ScenarioRun(scenario: try Library.scenario(file), options: RunOptions(startsPaused: true))
        run.start()
        Thread.sleep(forTimeInterval: 0.02)
        run.stop()
        #expect(run.hasEnded)
        #expect(
            run.waitForEnd(timeout: 0.5).contains { if case .end = $0.kind { return true } else { return false } }
                == false)
    }

    @Test("barriers, never-finishing and suspended work: every order of start, stop and drop")
    func hardCases() async throws {
        var b = ScenarioBuilder()
        let disk = b.queue("disk", cap: .limit(3))
        let held = b.queue("held", suspended: true)
        let w = b.work("w", on: disk, ms: 200)
        _ = b.barrier("flush", on: disk, ms: 50)
        _ = b.work("r", on: disk, ms: 50, after: [w])
        let forgets = b.async("forgets", on: disk, ms: 10, neverFinishes: true)
        // On an empty queue a barrier's block goes straight to dispatch,
        // suspended or not (ENGINE-NOTES "Queues"): it runs; `waits` does not.
        _ = b.barrier("gate", on: held)
        let waits = b.work("waits", on: held, ms: 10)
        let scenario = b.scenario

        // Dropped unstarted; stopped unstarted; stopped twice.
        _ = ScenarioRun(scenario: scenario)
        let unstarted = ScenarioRun(scenario: scenario)
        unstarted.stop()
        unstarted.stop()
        // Stopped at once, after a moment, and after its stall.
        for wait in [0, 40] {
            let run = ScenarioRun(scenario: scenario, options: RunOptions(speed: 2))
            run.start()
            if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
            run.stop()
            #expect(run.hasEnded)
        }
        let toTheEnd = ScenarioRun(scenario: scenario, options: RunOptions(speed: 8))
        toTheEnd.start()
        let events = await toTheEnd.ended(timeout: 20)
        toTheEnd.stop()
        guard case .end(.stalled(let stuck)) = events.last?.kind else {
            Issue.record("expected a stall, got \(String(describing: events.last))")
            return
        }
        #expect(Set(stuck.keys) == [forgets, waits])
        expectCleanStream(events, scenario)
    }
}

extension Action {
    /// An action every scenario can take (cancelling its first operation),
    /// to ask whether the run still accepts actions.
    static let probe = Action.cancel(OperationID(0))
}
