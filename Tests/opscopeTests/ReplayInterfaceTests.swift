import Foundation
import Testing

/// History and replay in the real program: a step back across a finish, a
/// recording opened with `replay`, a truncated one, and a run saved with W
/// and opened again.
@Suite("history and replay in tmux", .serialized)
struct ReplayInterfaceTests {
    static let chain = OpscopeBinary.packageRoot.appendingPathComponent("scenarios/01-chain.ops").path

    /// A recording of 01-chain made by `trace --format jsonl`.
    static func recording(in scratch: ScratchFiles) throws -> String {
        let traced = try OpscopeBinary.run(["trace", "--format", "jsonl", "--speed", "8", chain])
        #expect(traced.status == 0, "\(traced.stderr)")
        return try scratch.write("chain.jsonl", traced.stdout)
    }

    static func lines(_ screen: String) -> [String] { screen.components(separatedBy: "\n") }

    @Test("[ steps back across a finish: the card is in Executing again, not Ready")
    func stepBackAcrossAFinish() throws {
        let tmux = try TmuxSession(["--speed", "8", Self.chain])
        var screen = try tmux.waitFor(text: "ended")
        #expect(InterfaceTests.column("Finished", in: Self.lines(screen)).contains("save"))
        var steps = 0
        while InterfaceTests.column("Finished", in: Self.lines(screen)).contains("save") && steps < 12 {
            try tmux.send("[")
            steps += 1
            screen = try tmux.waitFor(text: "event \(try Self.eventCount(screen) - 1) of ")
        }
        let lines = Self.lines(screen)
        #expect(InterfaceTests.column("Executing", in: lines).contains("save"), "\(screen)")
        #expect(!InterfaceTests.column("Ready", in: lines).contains("save"))
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
    }

    /// N of "event N of M" in the title, or M when live.
    static func eventCount(_ screen: String) throws -> Int {
        let title = lines(screen).first ?? ""
        if let shown = title.components(separatedBy: "event ").dropFirst().first?.split(separator: " ").first {
            return Int(shown) ?? 0
        }
        let traced = try OpscopeBinary.run(["trace", "--format", "jsonl", "--speed", "8", chain])
        return traced.stdout.split(separator: "\n").count - 1
    }

    @Test(
        "replay is whole from its first frame: End, g and } reach the end before Space; engine keys are refused; Space plays from the cursor"
    )
    func replayARecording() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try Self.recording(in: scratch)
        let tmux = try TmuxSession(["replay", path])
        let start = try tmux.waitFor(text: "paused — Space plays from here")
        #expect(start.contains("opscope replay"))
        #expect(start.contains("event 0 of "))
        #expect(InterfaceTests.column("Pending", in: Self.lines(start)).contains("fetch"))
        // The whole recording is there before anything was played.
        try tmux.send("End")
        let end = try tmux.waitFor("the recording's end") {
            $0.contains("ended") && InterfaceTests.column("Finished", in: Self.lines($0)).contains("save")
        }
        #expect(end.contains("✓4") && !end.contains("✗"))
        try tmux.send("Home")
        try tmux.waitFor(text: "event 0 of ")
        try tmux.send("g", "1", ".", "1", "Enter")
        let late = try tmux.waitFor(text: "g 1.1: ")
        #expect(late.contains(" in the recording") && !late.contains("live"))
        try tmux.send("Home")
        try tmux.waitFor(text: "event 0 of ")
        try tmux.send("}")
        try tmux.waitFor(text: "event 1 of ")
        try tmux.send("]")
        try tmux.waitFor(text: "event 2 of ")
        try tmux.send("c")
        try tmux.waitFor(text: "a replay shows the recorded run and cannot change it")
        try tmux.send(">")
        try tmux.send(">")
        try tmux.send("Space")
        let ended = try tmux.waitFor("the recording played to its end") {
            $0.contains("ended") && InterfaceTests.column("Finished", in: Self.lines($0)).contains("save")
        }
        #expect(!ended.contains("Space starts"))
        try tmux.send("r")
        try tmux.waitFor(text: "back at the recording's start: Space plays it")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
    }

    @Test("a truncated recording opens with what comes before its broken line, and says which line")
    func truncatedRecording() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let whole = try String(contentsOfFile: try Self.recording(in: scratch), encoding: .utf8)
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        // The header and five events, then half of the seventh line.
        let cut = lines.prefix(6).joined(separator: "\n") + "\n" + lines[6].prefix(lines[6].count / 2)
        let path = try scratch.write("cut.jsonl", String(cut))
        let tmux = try TmuxSession(["replay", path])
        let screen = try tmux.waitFor(text: "replaying the 5 notifications before line 7")
        #expect(screen.contains("cut short"))
        try tmux.send("End")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        let missing = try OpscopeBinary.run(["replay", scratch.directory.appendingPathComponent("none.jsonl").path])
        #expect(missing.status == 2 && missing.stderr.contains("no such file"))
    }

    @Test("W saves the run shown as a recording, and replay opens the saved file")
    func saveAndReplay() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let tmux = try TmuxSession(["--speed", "8", Self.chain], directory: scratch.directory.path)
        try tmux.waitFor(text: "ended")
        try tmux.send("W")
        let saved = try tmux.waitFor(text: "saved ")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.directory.path)
            .filter { $0.hasPrefix("01-chain-") && $0.hasSuffix(".jsonl") }
        #expect(files.count == 1, "\(saved)")
        let file = try #require(files.first)
        let text = try String(contentsOfFile: scratch.directory.appendingPathComponent(file).path, encoding: .utf8)
        #expect(text.hasPrefix(#"{"kind":"header","format":"opscope-recording","version":3"#))
        #expect(text.contains(#""kind":"end","status":"completed""#))
        let replay = try TmuxSession(["replay", file], directory: scratch.directory.path)
        try replay.waitFor(text: "Space plays from here")
        try replay.send("End")
        try replay.send("Space")
        try replay.waitFor(text: "ended")
        try replay.send("q")
        try replay.waitFor(text: "[exit 0]")
    }
}
