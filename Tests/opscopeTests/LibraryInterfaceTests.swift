import Foundation
import Testing

/// Every file in `scenarios/` in the real program in a real terminal
/// (tmux), as people use them: a library scenario opens, runs to its end at
/// ×4, restarts on `r` and quits on `q` with the terminal restored; a
/// mistake is refused with its diagnostic and the terminal restored. A
/// scenario that only `trace` has run is untested where people use it.
@Suite("the library in the interface")
struct LibraryInterfaceTests {
    static let root = OpscopeBinary.packageRoot.appendingPathComponent("scenarios")

    static func files(_ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".ops") }.sorted()
    }

    static let library = files(root.path).map { "scenarios/\($0)" }
    static let mistakes = files(root.appendingPathComponent("mistakes").path).map { "scenarios/mistakes/\($0)" }

    /// The title bar says the run is over: ended, or stuck for good.
    static func isOver(_ screen: String) -> Bool {
        let title = screen.components(separatedBy: "\n").first ?? ""
        return title.contains("  ended") || title.contains("  stuck")
    }

    @Test func theWholeLibraryIsHere() {
        #expect(Self.library.count >= 27)
        #expect(Self.mistakes.count >= 4)
    }

    /// A wait on the main thread that can never return holds the main
    /// thread, which draws the title: the stand-in's line says so instead.
    static func isDeadlocked(_ screen: String) -> Bool {
        screen.contains("a deadlock, it never returns") || screen.contains(": deadlock;")
            || screen.contains("main thread deadlocked")
    }

    /// The seconds the blocked-main-thread line says, when it shows.
    static func blockedSeconds(_ screen: String) -> Double? {
        for marker in ["blocked ", "deadlocked ", "for "] {
            for piece in screen.components(separatedBy: marker).dropFirst() {
                let number = piece.prefix { $0.isNumber || $0 == "." }
                if piece.dropFirst(number.count).hasPrefix("s"), let seconds = Double(number),
                    Self.isDeadlocked(screen)
                {
                    return seconds
                }
            }
        }
        return nil
    }

    @Test("opens, runs to its end at ×4, restarts, quits", arguments: library)
    func libraryFile(_ path: String) throws {
        let tmux = try TmuxSession([path, "--speed", "4"])
        let end = try tmux.waitFor("\(path) to end", timeout: 60) { Self.isOver($0) || Self.isDeadlocked($0) }
        if Self.isDeadlocked(end) {
            // A deadlocked main thread is lost: `r` starts a new opscope in
            // this process's place, which drops the keys typed before its
            // screen is up (`flushinp`). It is up once the line's time has
            // gone back, or a frame without the line shows.
            let before = Self.blockedSeconds(try tmux.screenText()) ?? 0
            try tmux.send("r")
            try tmux.waitFor("a new opscope to be up", timeout: 20) { text in
                Self.blockedSeconds(text).map { $0 < before } ?? true
            }
        } else {
            try tmux.send("r")
            try tmux.waitFor(text: "restarted: a new run", timeout: 20)
        }
        // The new run starts from scratch: its clock went back.
        try tmux.waitFor("\(path) to run again", timeout: 20) { text in
            !Self.isOver(text) || (text.components(separatedBy: "\n").first ?? "").contains("t=0.")
        }
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]", timeout: 20)
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("a mistake is refused with its diagnostic; the terminal stays as it was", arguments: mistakes)
    func mistake(_ path: String) throws {
        let tmux = try TmuxSession([path])
        let screen = try tmux.waitFor(text: "[exit 2]", timeout: 20)
        #expect(screen.contains("\(path):"))
        #expect(screen.contains("error:"))
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test(
        "17: s suspends the downloads; the run waits, 2 s later s resumes them, and it completes with every expectation held"
    )
    func suspendAndResumeByHand() throws {
        let tmux = try TmuxSession(["scenarios/17-hundred-downloads-async.ops", "--speed", "1"])
        try tmux.waitFor(text: "4 running · cap 4")
        try tmux.send("s")
        let waiting = try tmux.waitFor("the run to wait for the user", timeout: 30) {
            $0.contains("waiting: downloads is suspended — s resumes it")
        }
        #expect(!Self.isOver(waiting))
        #expect(!waiting.contains("✗"), "nothing is judged while the run waits for the user")
        let clock = (waiting.components(separatedBy: "\n").first ?? "").components(separatedBy: "t=").last?
            .prefix(while: { $0 != " " })
        Thread.sleep(forTimeInterval: 2)
        let later = try tmux.screenText()
        #expect(later.contains("waiting: downloads is suspended"), "a stall the user can leave does not end the run")
        #expect(
            (later.components(separatedBy: "\n").first ?? "").contains("t=\(clock ?? "?")"),
            "the clock stands still while the run waits")
        try tmux.send("s")
        try tmux.waitFor(text: "downloads is resumed")
        let end = try tmux.waitFor("the run to complete", timeout: 60) { Self.isOver($0) }
        let title = end.components(separatedBy: "\n").first ?? ""
        #expect(title.contains("ended  ✓2"))
        #expect(!title.contains("✗"))
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("lesson mode: two captions of one moment get a Space each, and a run paused is never declared stuck")
    func eachCaptionGetsItsSpace() throws {
        let (scratch, path) = try InterfaceTests.scenario(
            """
            queue q
            op broken async 300ms never-finishes
            op next work 100ms after broken
            when broken ready  say "first of two: broken is Ready"
            when broken starts say "second of two: broken starts"
            expect stuck broken
            expect stuck next

            """)
        defer { scratch.remove() }
        let tmux = try TmuxSession(["--lesson", "--paused", path])
        try tmux.waitFor(text: "not started — Space starts it")
        try tmux.send("Space")
        try tmux.waitFor(text: "first of two: broken is Ready")
        Thread.sleep(forTimeInterval: 1)
        let paused = try tmux.screenText()
        #expect(paused.contains("(Space continues)"))
        #expect(!Self.isOver(paused), "a paused run must not be judged stuck")
        try tmux.send("Space")
        try tmux.waitFor(text: "second of two: broken starts")
        try tmux.send("Space")
        try tmux.waitFor("the stall once the run goes on", timeout: 20) {
            ($0.components(separatedBy: "\n").first ?? "").contains("stuck as expected")
        }
        try tmux.send("q")  // a lesson asks first
        try tmux.waitFor(text: "q again leaves the lesson")
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("a key that acts on the engine, on an ended run, says the run has ended")
    func keyOnAnEndedRun() throws {
        let tmux = try TmuxSession(["scenarios/01-chain.ops", "--speed", "8"])
        try tmux.waitFor("the run to end", timeout: 30) { Self.isOver($0) }
        try tmux.send("-")
        try tmux.waitFor(text: "the run has ended — r runs it again")
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("options before the file: opened paused at ×2, Space starts it")
    func optionsBeforeTheFile() throws {
        let tmux = try TmuxSession(["--paused", "--speed", "2", "scenarios/02-cap.ops"])
        let paused = try tmux.waitFor(text: "not started — Space starts it")
        #expect((paused.components(separatedBy: "\n").first ?? "").contains("t=0.000s  ×2"))
        try tmux.send("Space")
        try tmux.waitFor("the run to end", timeout: 30) { Self.isOver($0) }
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }
}
