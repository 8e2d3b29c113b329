import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Signals and job control in the real program, in tmux: they end it (or
/// stop and continue it) and give the terminal back, also while a main-queue
/// operation blocks the main thread, where the interface itself cannot act.
@Suite("signals in tmux", .serialized)
struct SignalTests {
    /// A main-queue operation that holds the main thread for a long time.
    static let freeze = """
        queue ui main
        op freeze on ui work 30s
        """

    static func freezing() throws -> (ScratchFiles, TmuxSession) {
        let (scratch, path) = try InterfaceTests.scenario(Self.freeze)
        let tmux = try TmuxSession(["--speed", "1", path], columns: 80, rows: 24)
        try tmux.waitFor(text: "main thread blocked by freeze: keys wait until it returns; Ctrl-C quits now")
        return (scratch, tmux)
    }

    @Test(
        "SIGTERM, SIGHUP, SIGQUIT and SIGINT end a frozen interface within seconds, exit 128 + the signal, and restore the terminal",
        arguments: [(SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131), (SIGINT, 130)])
    func signalsEndAFrozenInterface(signal: Int32, status: Int) throws {
        let (scratch, tmux) = try Self.freezing()
        defer { scratch.remove() }
        kill(try tmux.programPID(), signal)
        // The operation has 25 s or more still to run: only the watch can end it this soon.
        let text = try tmux.waitFor(text: "[exit \(status)]", timeout: 5)
        #expect(text.contains("the main thread did not answer within 0.5 s"))
        try tmux.waitFor(text: "[terminal restored]")
        #expect(try tmux.terminalModes() == "alternate=0 keypad=0 cursor=1")
    }

    @Test(
        "practice on the board, waiting for the answer, ends on each signal with 128 + it and restores the terminal",
        arguments: [(SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131), (SIGINT, 130)])
    func signalsEndPracticeOnTheBoard(signal: Int32, status: Int) throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let tmux = try TmuxSession(["practice"], columns: 80, rows: 24, environment: ["XDG_DATA_HOME": data.path])
        try tmux.waitFor(text: "your answer: _")
        try tmux.send("fetch")
        try tmux.waitFor(text: "your answer: fetch_")
        kill(try tmux.programPID(), signal)
        let text = try tmux.waitFor(text: "[exit \(status)]", timeout: 10)
        #expect(!text.contains("crashed"))
        try tmux.waitFor(text: "[terminal restored]")
        #expect(try tmux.terminalModes() == "alternate=0 keypad=0 cursor=1")
    }

    @Test("Ctrl-S and Ctrl-Q are keys: flow control is off while the interface runs and back after it")
    func flowControlKeysAreKeys() throws {
        let (scratch, path) = try InterfaceTests.scenario("op a work 30s\n")
        defer { scratch.remove() }
        let tmux = try TmuxSession(["--speed", "1", path], columns: 80, rows: 24)
        try tmux.waitFor(text: "Inspector: a")
        #expect(try !tmux.flowControlIsOn())
        try tmux.send("C-s")
        // The screen goes on: the scenario clock still moves, and q quits.
        let clock = { (text: String) in text.split(separator: "\n").first.map(String.init) ?? "" }
        let before = clock(try tmux.screenText())
        try tmux.waitFor("the clock to move after Ctrl-S") { clock($0) != before }
        try tmux.send("C-q")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("One SIGTERM ends the program within seconds while its terminal's output is stopped")
    func aSignalEndsTheProgramWhenTheTerminalIsStopped() throws {
        let (scratch, path) = try InterfaceTests.scenario("op a work 30s\n")
        defer { scratch.remove() }
        let tmux = try TmuxSession(["--speed", "1", path], columns: 80, rows: 24)
        try tmux.waitFor(text: "Inspector: a")
        let pid = try tmux.programPID()
        try tmux.suspendOutput(true)
        // Frames go on into the stopped terminal until its buffer is full.
        Thread.sleep(forTimeInterval: 0.5)
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while kill(pid, 0) == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(kill(pid, 0) != 0, "opscope still runs 5 s after SIGTERM with its output stopped")
        try tmux.suspendOutput(false)
        try tmux.waitFor(text: "[exit 143]", timeout: 5)
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("Ctrl-C during a freeze quits at once; q during one is honoured when it ends")
    func keysDuringAFreeze() throws {
        let (scratch, tmux) = try Self.freezing()
        defer { scratch.remove() }
        try tmux.send("C-c")
        try tmux.waitFor(text: "[exit 130]", timeout: 5)
        try tmux.waitFor(text: "[terminal restored]")

        let (shortScratch, path) = try InterfaceTests.scenario(
            """
            queue ui main
            op freeze on ui work 2s
            op later on ui work 30s after freeze
            """)
        defer { shortScratch.remove() }
        let short = try TmuxSession(["--speed", "1", path], columns: 80, rows: 24)
        try short.waitFor(text: "main thread blocked by freeze")
        try short.send("q")
        // Still frozen: the key waits in the terminal.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!(try short.screenText().contains("[exit")))
        try short.waitFor(text: "[exit 0]", timeout: 20)
        try short.waitFor(text: "[terminal restored]")
    }

    @Test("Ctrl-Z leaves the interface's modes; SIGCONT brings back the screen and the keypad mode")
    func stopAndContinue() throws {
        let (scratch, path) = try InterfaceTests.scenario("op a work 30s\nop b work 1s after a\n")
        defer { scratch.remove() }
        let tmux = try TmuxSession(["--paused", path], columns: 80, rows: 24)
        try tmux.waitFor(text: "not started")
        let pid = try tmux.programPID()
        try tmux.send("C-z")
        // The shell in the pane (sh -c, no job control) waits for the stopped
        // program; the terminal is back in the shell's modes meanwhile.
        try tmux.waitFor("the modes left") { _ in (try? tmux.terminalModes()) == "alternate=0 keypad=0 cursor=1" }
        kill(pid, SIGCONT)
        try tmux.waitFor("the modes re-entered") { _ in (try? tmux.terminalModes()) == "alternate=1 keypad=1 cursor=0" }
        try tmux.waitFor(text: "Inspector: a")
        // Arrow keys are decoded again: Down selects the card below a in
        // Pending (the run has not started: both wait there, not added yet).
        try tmux.send("Down")
        let text = try tmux.waitFor(text: "Inspector: b")
        #expect(!text.contains("unknown key"))
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }
}
