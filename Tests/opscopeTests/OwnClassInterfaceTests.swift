import CommandSupport
import Foundation
import Testing

/// `opscope FILE` of a scenario with the user's classes, in the real
/// program: the classes run live in a child opscope, and the keys act on
/// that run (suspend, cancel, restart), as on any other; the card of a
/// class shows how long it has run, not a share of a length its code
/// alone knows; the stall names the class that never told Foundation; a
/// crash in the user's code ends the child, not the board.
@Suite("the board of your own classes, live, in tmux", .serialized)
struct OwnClassInterfaceTests {
    static func open(_ fixture: String, _ options: [String] = [], columns: Int = 80, rows: Int = 24) throws
        -> TmuxSession
    {
        try TmuxSession(
            options + [OwnClassCommandTests.fixture(fixture)], columns: columns, rows: rows,
            environment: ["XDG_CACHE_HOME": OwnClassCommandTests.cache])
    }

    /// The processes still running a child of `fixture`.
    static func children(of fixture: String) throws -> String {
        let found = try OpscopeBinary.run(
            ["-f", "trace \(OwnClassCommandTests.fixture(fixture))"], timeout: 10,
            executable: URL(fileURLWithPath: "/usr/bin/pgrep"))
        return found.stdout
    }

    @Test func theKeysActOnTheLiveRunOfTheClasses() throws {
        let tmux = try Self.open("live.ops", ["--paused"])
        try tmux.waitFor(text: "not started — Space starts it", timeout: 120)
        try tmux.send("Space")
        let running = try tmux.waitFor("first executing") { screen in
            InterfaceTests.column("Executing", in: screen.components(separatedBy: "\n")).contains("first")
        }
        #expect(running.contains("running "), "its time so far, no percentage: \(running)")
        try tmux.send("s")
        try tmux.waitFor(text: "SUSPENDED")
        // The first card is selected: its cancel reaches its main(), which
        // returns at its next look at the flag.
        try tmux.send("c")
        let cancelled = try tmux.waitFor("first cancelled") { screen in
            InterfaceTests.column("Cancelled", in: screen.components(separatedBy: "\n")).contains("first")
        }
        let lines = cancelled.components(separatedBy: "\n")
        #expect(!InterfaceTests.column("Executing", in: lines).contains("second"), "net is suspended: \(cancelled)")
        try tmux.send("s")
        try tmux.waitFor("second executing once net is resumed") { screen in
            InterfaceTests.column("Executing", in: screen.components(separatedBy: "\n")).contains("second")
        }
        // A restart is a new child: the cancel was the last run's.
        try tmux.send("r")
        try tmux.waitFor(text: "not started")
        try tmux.send("Space")
        try tmux.waitFor("first executing again, nothing cancelled") { screen in
            let lines = screen.components(separatedBy: "\n")
            return InterfaceTests.column("Executing", in: lines).contains("first")
                && InterfaceTests.column("Cancelled", in: lines).trimmingCharacters(in: .whitespaces).isEmpty
        }
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        let deadline = Date().addingTimeInterval(10)
        while try !Self.children(of: "live.ops").isEmpty, Date() < deadline { usleep(100_000) }
        #expect(try Self.children(of: "live.ops").isEmpty, "no child outlives the board")
    }

    /// A folder of its own with `live.ops` and `Crawl.swift` in
    /// `scenarios/`, removed by the caller.
    static func copiedLesson() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-live-\(UUID().uuidString)")
        let scenarios = folder.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        for name in ["live.ops", "Crawl.swift"] {
            try FileManager.default.copyItem(
                atPath: OwnClassCommandTests.fixture(name), toPath: scenarios.appendingPathComponent(name).path)
        }
        return folder
    }

    /// `--watch`: a save of the user's Swift file runs the classes anew;
    /// one that does not compile leaves the run shown, and says why.
    @Test func aSaveOfTheSwiftFileRunsTheClassesAnew() throws {
        let folder = try Self.copiedLesson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let code = folder.appendingPathComponent("scenarios/Crawl.swift")
        let tmux = try TmuxSession(
            ["--watch", "scenarios/live.ops"], columns: 120, rows: 30,
            environment: ["XDG_CACHE_HOME": OwnClassCommandTests.cache], directory: folder.path)
        try tmux.waitFor("first executing", timeout: 120) { screen in
            InterfaceTests.column("Executing", in: screen.components(separatedBy: "\n")).contains("first")
        }
        // Ten steps of 50 ms, not sixty: the next run ends within a second.
        let text = try String(contentsOf: code, encoding: .utf8)
        try text.replacingOccurrences(of: "0..<60", with: "0..<10").write(to: code, atomically: true, encoding: .utf8)
        try tmux.waitFor(text: "the scenario is as it was; your classes run as they are now", timeout: 120)
        let ended = try tmux.waitFor(text: "ended", timeout: 30)
        #expect(InterfaceTests.column("Finished", in: ended.components(separatedBy: "\n")).contains("second"))
        try (text + "\nbroken(\n").write(to: code, atomically: true, encoding: .utf8)
        let refused = try tmux.waitFor(text: "your classes cannot run: 1 error in your code", timeout: 120)
        #expect(refused.contains("the run shown stays"), "\(refused)")
        #expect(InterfaceTests.column("Finished", in: refused.components(separatedBy: "\n")).contains("second"))
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
    }

    /// The picker lists a file with the user's classes like any other, and
    /// opens it on a live run of them.
    @Test func thePickerOpensAFileWithTheUsersClasses() throws {
        let folder = try Self.copiedLesson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try TmuxSession(
            [], columns: 80, rows: 24,
            environment: [
                "XDG_CACHE_HOME": OwnClassCommandTests.cache,
                "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
            ], directory: folder.path)
        try tmux.waitFor(text: "live.ops  Your classes, live")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Space starts it")
        try tmux.send("Space")
        try tmux.waitFor("first executing", timeout: 120) { screen in
            InterfaceTests.column("Executing", in: screen.components(separatedBy: "\n")).contains("first")
        }
        // Out of the lesson (q twice), back to the picker, then out.
        try tmux.send("q")
        try tmux.waitFor(text: "q again leaves the lesson")
        try tmux.send("q")
        try tmux.waitFor(text: "choose a scenario")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
    }

    @Test func theStallNamesTheClassThatNeverToldFoundation() throws {
        let tmux = try Self.open("untold.ops", columns: 200, rows: 40)
        let end = try tmux.waitFor(text: "stuck: fetch never posts isFinished", timeout: 120)
        let lines = end.components(separatedBy: "\n")
        #expect(InterfaceTests.column("Executing", in: lines).contains("fetch"), "\(end)")
        #expect(!end.contains("100%"))
        #expect(end.contains("its class says isFinished is true, but Foundation was never told"), "\(end)")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
    }

    @Test func aCrashInTheUsersCodeEndsTheChildNotTheBoard() throws {
        let tmux = try Self.open("crash.ops", columns: 120, rows: 30)
        let crashed = try tmux.waitFor(text: "the run of your classes was killed by signal 4 (SIGILL)", timeout: 120)
        #expect(crashed.contains("Fatal error"), "Foundation's words: \(crashed)")
        #expect(InterfaceTests.column("Executing", in: crashed.components(separatedBy: "\n")).contains("boom"))
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
    }

    /// `opscope kata NAME FILE --board`: after the report, the board opens
    /// on the first failing check's scene, the user's class made as the
    /// check makes it; here the finish Foundation is never told of stalls
    /// the dependent, and the stall says the rule.
    @Test func aFailingKataCheckOpensOnTheBoard() throws {
        let answer =
            OpscopeBinary.packageRoot.path + "/Tests/opscopeTests/Fixtures/katas/async-operation/finish-not-told.swift"
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-kata-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let tmux = try TmuxSession(
            ["kata", "async-operation", answer, "--board"], columns: 200, rows: 40,
            environment: ["XDG_CACHE_HOME": OwnClassCommandTests.cache, "XDG_DATA_HOME": data.path])
        try tmux.waitFor(text: "async-operation: it runs and finishes, and Foundation is told", timeout: 240)
        try tmux.send("Space")
        let stuck = try tmux.waitFor(text: "stuck: download never posts isFinished", timeout: 60)
        #expect(stuck.contains("class KataAsyncDownload"), "\(stuck)")
        #expect(stuck.contains("its class says isFinished is true, but Foundation was never told"), "\(stuck)")
        try tmux.send("q")
        let after = try tmux.waitFor(text: "[exit 1]")
        #expect(after.contains("checks passed"), "the report stays above: \(after)")
    }

    /// A class that goes executing after a cancel that came before its
    /// start: the inspector says the rule its start() broke.
    @Test func theInspectorSaysTheRuleAnEarlyCancelBroke() throws {
        let tmux = try Self.open("early-cancel.ops", columns: 200, rows: 40)
        try tmux.waitFor(text: "ended", timeout: 120)
        // The selection, on the first card (Finished), moves to fetch (Cancelled).
        try tmux.send("Right")
        let shown = try tmux.waitFor(text: "Inspector: fetch")
        #expect(shown.contains("cancelled at 0.050s by line 6 (cancel fetch)"), "\(shown)")
        #expect(
            shown.contains("it went executing though it was cancelled before it started: start() looks at"),
            "\(shown)")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
    }
}
