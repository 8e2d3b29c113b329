import Foundation
import Testing

/// A wait on the main thread, in the real program (lesson 30): `trace`
/// ends a deadlocked run with its reason though its main thread never
/// comes back, and the interface says how long it has been blocked and
/// lets the user leave or start again, terminal restored.
@Suite("waiting on the main thread")
struct MainThreadWaitTests {
    static let lesson = "scenarios/30-waiting-on-the-main-thread.ops"

    @Test func traceEndsADeadlockWithItsReasonAndWhatIOSWouldDo() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "4", Self.lesson], timeout: 60)
        #expect(result.status == 0, "the stuck operation is expected: \(result.stderr)")
        let out = result.stdout
        #expect(out.contains("download.waitUntilFinished() started: the main thread is blocked until it returns"))
        #expect(out.contains("download.waitUntilFinished() returned"))
        #expect(out.contains("badge.waitUntilFinished() started"))
        #expect(!out.contains("badge.waitUntilFinished() returned"))
        #expect(
            out.contains(
                "1 operation held: the main thread is blocked in badge.waitUntilFinished(), so the main queue runs "
                    + "nothing — badge"))
        #expect(out.contains("a deadlock: badge is on the main queue, and only the main thread runs it"))
        #expect(out.contains("0x8badf00d"))
        // The first wait returned before show, on the main queue, started.
        let returned = try #require(out.range(of: "download.waitUntilFinished() returned"))
        let showStarted = try #require(
            out.range(of: #"show\s+isExecuting\s+false → true"#, options: .regularExpression))
        #expect(returned.lowerBound < showStarted.lowerBound)
    }

    @Test func theRecordingOfADeadlockReadsBack() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "4", "--format", "jsonl", Self.lesson], timeout: 60)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
        let waits = lines.filter { $0.contains(#""kind":"wait""#) }
        #expect(waits.count == 3, "download started and returned, badge started: \(waits)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wait-\(UUID()).jsonl").path
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let again = try OpscopeBinary.run(["trace", path], timeout: 30)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("a deadlock: badge is on the main queue"))
    }

    @Test func theInterfaceSaysTheMainThreadIsBlockedAndQLeaves() throws {
        let tmux = try TmuxSession([Self.lesson, "--speed", "4"], columns: 80, rows: 24)
        // At 80 columns, the line's shortest form.
        try tmux.waitFor("the deadlock line", timeout: 60) { $0.contains("main thread deadlocked") }
        try tmux.send("x")  // dropped: the main thread reads no key
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]", timeout: 20)
        try tmux.waitFor(text: "[terminal restored]")
        let after = try tmux.screenText()
        #expect(after.contains("left while the main thread was blocked in badge.waitUntilFinished()"))
    }

    @Test func aDeadlockedInterfaceStartsAgainOnR() throws {
        let tmux = try TmuxSession([Self.lesson, "--speed", "4"], columns: 200, rows: 60)
        try tmux.waitFor("the deadlock line", timeout: 60) { LibraryInterfaceTests.isDeadlocked($0) }
        try tmux.send("r")
        // A new opscope: its clock starts again, before the first wait.
        try tmux.waitFor("a new run", timeout: 30) { screen in
            let title = screen.components(separatedBy: "\n").first ?? ""
            return title.contains("t=0.") && !LibraryInterfaceTests.isDeadlocked(screen)
        }
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]", timeout: 30)
        try tmux.waitFor(text: "[terminal restored]")
    }

    /// Lesson 27: `after` starts on the main thread while the lesson waits
    /// at the caption of freeze's finish. The pause does not hold that
    /// work (the thread that would read Space is the one working), so it
    /// takes its own 100ms of scenario time, and each caption then waits
    /// for a Space of its own.
    @Test func aCaptionPauseDoesNotTakeTheMainThreadWorksTime() throws {
        let tmux = try TmuxSession(
            ["run", "--lesson", "--paused", "scenarios/27-main-queue-freeze.ops", "--speed", "4"], columns: 120,
            rows: 34)
        try tmux.waitFor(text: "Space starts it")
        try tmux.send("Space")
        try tmux.waitFor("the first caption, waiting", timeout: 30) {
            $0.contains("freeze returns after 2s") && $0.contains("(Space continues)")
        }
        try tmux.send("Space")
        try tmux.waitFor("the second caption", timeout: 30) { $0.contains("— after ran only once freeze was done") }
        let screen = try tmux.screenText()
        // The cards' finish times: freeze's, then after's 100ms later.
        func finished(_ name: String) -> Double? {
            let lines = screen.components(separatedBy: "\n")
            guard let row = lines.firstIndex(where: { $0.contains("│\(name) ") }) else { return nil }
            let column = lines[row].range(of: "│\(name) ")!.lowerBound
            for line in lines[(row + 1)...].prefix(2) where line.count > column.utf16Offset(in: line) {
                let cell = line[column...].dropFirst().prefix(while: { $0 != "│" })
                if let mark = cell.range(of: "✓ ") {
                    return Double(cell[mark.upperBound...].prefix(while: { $0.isNumber || $0 == "." }))
                }
            }
            return nil
        }
        let (freeze, after) = (try #require(finished("freeze")), try #require(finished("after")))
        #expect(after - freeze >= 0.09, "after's work took its time: freeze \(freeze)s, after \(after)s")
        try tmux.send("q")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]", timeout: 30)
    }

    /// Opened from the picker, `r` opens the lesson again as the picker
    /// did (a new process: the picker behind it), not the picker alone.
    @Test func fromThePickerRRunsTheLessonAgain() throws {
        let tmux = try TmuxSession(["--speed", "4"], columns: 100, rows: 30)
        try tmux.waitFor(text: "choose a scenario")
        try tmux.send("Down")
        try tmux.waitFor(text: "▶ 01-chain.ops")
        // Lesson 30, as many entries down as files come before it.
        let before = try FileManager.default.contentsOfDirectory(
            atPath: OpscopeBinary.packageRoot.path + "/scenarios"
        ).filter { $0.hasSuffix(".ops") && $0 < "30-" }.count
        try tmux.sendKeys(Array(repeating: "Down", count: before))
        try tmux.waitFor(text: "▶ 30-waiting-on-the-main-thread.ops")
        try tmux.send("Enter")
        try tmux.waitFor(text: "not started — Space starts it")
        // Space starts it, then goes on at each caption, until the deadlock.
        let deadline = Date(timeIntervalSinceNow: 90)
        var screen = try tmux.screenText()
        while !LibraryInterfaceTests.isDeadlocked(screen), Date() < deadline {
            if screen.contains("Space starts it") || screen.contains("Space continues") { try tmux.send("Space") }
            Thread.sleep(forTimeInterval: 0.3)
            screen = try tmux.screenText()
        }
        try tmux.waitFor("the deadlock line", timeout: 30) { LibraryInterfaceTests.isDeadlocked($0) }
        try tmux.send("r")
        try tmux.waitFor("the lesson again, not started", timeout: 30) { screen in
            screen.contains("Waiting on the main thread") && screen.contains("not started — Space starts it")
                && !screen.contains("choose a scenario")
        }
        // Left, it goes back to the picker, on the lesson's entry.
        try tmux.send("q")
        try tmux.waitFor(text: "q again leaves the lesson")
        try tmux.send("q")
        try tmux.waitFor(text: "▶ 30-waiting-on-the-main-thread.ops")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]", timeout: 30)
        try tmux.waitFor(text: "[terminal restored]")
    }
}
