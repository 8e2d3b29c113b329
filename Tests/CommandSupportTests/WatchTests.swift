import CommandSupport
import Foundation
import ScenarioKit
import Synchronization
import Testing

/// `--watch`: the debouncer on a made-up clock, what a save changed, and
/// the watch itself on real files (inotify, and the polling fallback).
@Suite struct WatchTests {
    // MARK: - The debouncer, on a made-up clock

    @Test func aBurstOfSavesIsTakenOnceAQuietPeriodAfterItsLastEvent() {
        var debouncer = SaveDebouncer(quiet: 0.1, longest: 1)
        #expect(!debouncer.isPending && debouncer.deadline == nil)
        // An editor's save: write, rename, attributes, a few ms apart; then
        // a script's two appends.
        for t in [10.000, 10.004, 10.009, 10.050, 10.080] {
            debouncer.changed(at: t)
            let taken = debouncer.take(at: t)
            #expect(!taken, "nothing is taken while the burst goes on")
        }
        #expect(abs((debouncer.deadline ?? 0) - 10.180) < 1e-9)
        let early = debouncer.take(at: 10.179)
        let due = debouncer.take(at: 10.181)
        let later = debouncer.take(at: 10.5)
        #expect(!early)
        #expect(due, "one reload for the burst")
        #expect(!later, "and only one")
        #expect(!debouncer.isPending)
    }

    @Test func twoSavesFarApartAreTwoReloads() throws {
        var debouncer = SaveDebouncer(quiet: 0.1, longest: 1)
        var reloads: [Double] = []
        var t = 0.0
        let events: Set<Int> = [0, 1, 2, 50, 51]  // in steps of 10 ms
        for step in 0..<100 {
            t = Double(step) * 0.01
            if events.contains(step) { debouncer.changed(at: t) }
            if debouncer.take(at: t) { reloads.append(t) }
        }
        try #require(reloads.count == 2)
        // 100 ms after each burst's last event, to the clock's step.
        #expect((0.12...0.13).contains(reloads[0]) && (0.61...0.62).contains(reloads[1]))
    }

    @Test func aStreamThatNeverPausesStillReloadsAtTheLongestBound() {
        var debouncer = SaveDebouncer(quiet: 0.1, longest: 1)
        var reloads: [Double] = []
        // An event every 50 ms for 2.5 s: never 100 ms of quiet.
        for step in 0...50 {
            let t = Double(step) * 0.05
            debouncer.changed(at: t)
            if debouncer.take(at: t) { reloads.append(t) }
        }
        #expect(reloads.count == 2, "once a second at most, while it lasts")
        #expect((1.0...1.05).contains(reloads.first ?? 0))
    }

    // MARK: - What a save changed

    static func scenario(_ text: String) -> Scenario {
        ScenarioReader.read(text).scenario!
    }

    @Test func changesCountStatementsAndNameOperationsThatCameOrWent() {
        let old = Self.scenario(
            """
            queue q max 2
            op a work 1s
            op b work 1s after a
            """)
        let spaced = Self.scenario(
            """
            # a comment, and other spacing
            queue q  max 2

            op a   work 1000ms
            op b work 1s after a
            """)
        #expect(ScenarioChanges(from: old, to: spaced) == ScenarioChanges(statements: 0))
        #expect(ScenarioChanges(from: old, to: spaced).summary == "no change")
        let edited = Self.scenario(
            """
            queue q max 3
            op a work 1s
            op c work 1s after a
            op d work 1s
            """)
        let changes = ScenarioChanges(from: old, to: edited)
        #expect(
            changes
                == ScenarioChanges(
                    statements: 3, added: ["c", "d"], removed: ["b"],
                    named: ["q cap 2 → 3", "c added", "d added", "b removed"]))
        #expect(changes.summary == "4 changes: q cap 2 → 3, c added, d added and 1 more")
        let one = ScenarioChanges(from: old, to: Self.scenario("queue q max 2\nop a work 2s\nop b work 1s after a"))
        #expect(one.summary == "1 change: a: work 1s → work 2s")
    }

    /// Each kind of change in the words of `check`'s canonical print, one
    /// per clause of an operation edited, in the file's order.
    @Test(arguments: [
        ("queue net max 2\nop a on net work 1s", "queue net max 3\nop a on net work 1s", ["net cap 2 → 3"]),
        (
            "queue net\nop a on net work 1s", "queue net serial qos utility\nop a on net work 1s",
            ["net cap default → serial", "net qos utility added"]
        ),
        (
            "queue net serial\nop a on net work 1s", "queue net max 2 suspended\nop a on net work 1s\nat 1s resume net",
            ["net serial → cap 2", "net suspended added", "at 1s resume net added"]
        ),
        ("queue net qos utility\nop a on net work 1s", "queue net\nop a on net work 1s", ["net qos utility removed"]),
        (
            "op save work 1s\nop upload work 1s after save",
            "op save work 1s\nop encode work 1s\nop upload work 1s after encode",
            ["encode added", "upload: after save → after encode"]
        ),
        (
            "op a work 1s priority high", "op a work 1s qos utility ignores-cancel",
            ["a: priority high removed", "a: qos utility added", "a: ignores-cancel added"]
        ),
        (
            "op a work 1s\nop fetch work 1s after a\nexpect a before fetch", "op a work 1s",
            ["fetch removed", "expect a before fetch removed"]
        ),
        (
            "queue q\nop a on q work 1s\nbarrier b on q", "queue q\nop a on q work 1s\nop b on q work 1s",
            ["b: barrier → op", "b: work 1s added"]
        ),
        (
            "op a work 1s completion cancel b\nop b work 1s",
            "op a work 1s completion cancel c\nop b work 1s\nop c work 1s",
            ["a: completion cancel b → completion cancel c", "c added"]
        ),
    ])
    func aChangeIsNamedAsCheckPrintsIt(before: String, after: String, named: [String]) {
        let changes = ScenarioChanges(from: Self.scenario(before), to: Self.scenario(after))
        #expect(changes.named == named)
    }

    @Test func aLongListOfChangesIsCutAfterThree() {
        let old = Self.scenario("op a work 1s")
        let new = Self.scenario((["op a work 1s"] + (1...6).map { "op n\($0) work 1s" }).joined(separator: "\n"))
        let changes = ScenarioChanges(from: old, to: new)
        #expect(changes.named.count == 6)
        #expect(changes.summary == "6 changes: n1 added, n2 added, n3 added and 3 more")
    }

    @Test func aReadGivesTheScenarioItsProblemsOrWhyItCannot() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let old = Self.scenario("op a work 1s")
        let path = try scratch.write("w.ops", "op a work 1s\nop b work 1s after a\n")
        guard case .scenario(let scenario, let file, let changes) = ScenarioWatch.read(path, since: old) else {
            Issue.record("a good file reads as a scenario")
            return
        }
        #expect(scenario.operations.map(\.name) == ["a", "b"] && file.path == path)
        #expect(changes.summary == "1 change: b added")
        _ = try scratch.write("w.ops", "op a work 1s after nosuch\n")
        guard case .problems(let result, _) = ScenarioWatch.read(path, since: old) else {
            Issue.record("a broken file gives its problems")
            return
        }
        #expect(result.errorCount == 1)
        guard case .unreadable(let reason) = ScenarioWatch.read(scratch.path("gone.ops"), since: old) else {
            Issue.record("a missing file cannot be read")
            return
        }
        #expect(reason == .removed)
        #expect(reason.text("gone.ops") == "gone.ops was removed")
        // A folder, a link in a loop and a link to nothing in its place are
        // each said as such, never read.
        try FileManager.default.createDirectory(
            atPath: scratch.path("folder.ops"), withIntermediateDirectories: true)
        symlink(scratch.path("loop.ops"), scratch.path("loop.ops"))
        symlink(scratch.path("nothing-here"), scratch.path("dangling.ops"))
        let cases: [(String, Unreadable)] = [
            ("folder.ops", .directory), ("loop.ops", .linkLoop), ("dangling.ops", .linkToNothing),
        ]
        for (name, expected) in cases {
            guard case .unreadable(let why) = ScenarioWatch.read(scratch.path(name), since: old) else {
                Issue.record("\(name) has nothing to read")
                continue
            }
            #expect(why == expected, "\(name)")
        }
    }

    // MARK: - The watch on real files

    /// Counts the watch's calls, and waits for them with a real-time bound.
    final class Calls: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }

        /// Waits until `n` calls came (true) or `timeout` seconds passed.
        func wait(for n: Int, timeout: Double) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if value >= n { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return value >= n
        }
    }

    @Test(arguments: [false, true])
    func aBurstOfWritesAndARenameOverTheFileAreEachOneChange(polling: Bool) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.write("w.ops", "op a work 1s\n")
        let calls = Calls()
        let watch = try #require(
            FileWatch.start(path, debouncer: SaveDebouncer(quiet: 0.1), pollInterval: 0.05, polling: polling) {
                calls.add()
            })
        defer { watch.stop() }
        #expect(watch.mechanism == (polling ? .polling : .kernel))
        // Another file in the folder is nothing.
        _ = try scratch.write("other.ops", "op x work 1s\n")
        // Three appends in a row, as a script makes them.
        for line in ["op b work 1s\n", "op c work 1s\n", "op d work 1s\n"] {
            let handle = try #require(FileHandle(forWritingAtPath: path))
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            try handle.close()
        }
        #expect(calls.wait(for: 1, timeout: 2))
        Thread.sleep(forTimeInterval: 0.3)
        #expect(calls.value == 1, "the burst is one change")
        // An editor's save: a new file renamed over the old one.
        let temporary = try scratch.write(".w.ops.swp", "op a work 2s\n")
        #expect(rename(temporary, path) == 0)
        #expect(calls.wait(for: 2, timeout: 2))
        Thread.sleep(forTimeInterval: 0.3)
        #expect(calls.value == 2)
    }

    @Test func noChangeComesAfterTheWatchStopped() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.write("w.ops", "op a work 1s\n")
        let calls = Calls()
        let watch = try #require(FileWatch.start(path) { calls.add() })
        watch.stop()
        watch.stop()
        _ = try scratch.write("w.ops", "op a work 2s\n")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(calls.value == 0)
    }
}

/// A scratch folder for the watch's files.
struct Scratch {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Writes `text` into `name` in place (open, truncate, write, close).
    func write(_ name: String, _ text: String) throws -> String {
        let path = path(name)
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
