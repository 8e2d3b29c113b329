import Foundation
import Testing

/// The program without its state reader (`OPSCOPE_STATE_READER=off`, as a
/// user turns it off): every output says that no moment of dispatch was
/// observed, and no caption about a dispatch shows.
@Suite("without the state reader", .serialized)
struct StateReaderOffTests {
    static let off = ["OPSCOPE_STATE_READER": "off"]
    static let note = "dispatch moments are not observed"

    @Test("the text trace says so first; with the reader it says nothing of it")
    func textTrace() throws {
        let result = try OpscopeBinary.run(
            ["trace", "--speed", "4", "scenarios/18-hundred-downloads-sync.ops"], timeout: 120, environment: Self.off)
        #expect(result.status != 2, "stderr: \(result.stderr)")
        let first = result.stdout.prefix { $0 != "\n" }
        #expect(first.hasPrefix("note: " + Self.note), "\(first)")
        #expect(!result.stdout.contains("the queue dispatched four"), "a caption about a dispatch was shown")
        #expect(result.stdout.contains("dl100, the last one added, starts"))
        // Any other value leaves it on (also under CI's pass with it off).
        let on = try OpscopeBinary.run(
            ["trace", "--speed", "8", "scenarios/01-chain.ops"], environment: ["OPSCOPE_STATE_READER": "on"])
        #expect(!on.stdout.contains(Self.note))
    }

    @Test("the timeline says so first, and draws no wait for a thread it did not see")
    func timeline() throws {
        let result = try OpscopeBinary.run(
            ["trace", "--format", "timeline", "--speed", "4", "scenarios/18-hundred-downloads-sync.ops"], timeout: 120,
            environment: Self.off)
        #expect(result.status != 2, "stderr: \(result.stderr)")
        #expect(result.stdout.hasPrefix("note: " + Self.note), "\(result.stdout.prefix(300))")
        #expect(!result.stdout.contains("▒"), "a dispatch was drawn that the run did not observe")
        let on = try OpscopeBinary.run(
            ["trace", "--format", "timeline", "--speed", "8", "scenarios/01-chain.ops"],
            environment: ["OPSCOPE_STATE_READER": "on"])
        #expect(!on.stdout.contains(Self.note))
    }

    @Test("a recording made without it says so, and its replay's notes too")
    func recordingAndReplay() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("off.jsonl", "")
        let result = try OpscopeBinary.run(
            ["trace", "--format", "jsonl", "--speed", "8", "scenarios/01-chain.ops"], outputTo: path,
            environment: Self.off)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let recording = try String(contentsOfFile: path, encoding: .utf8)
        #expect(recording.prefix { $0 != "\n" }.hasSuffix(#","dispatches":"at-start"}"#))
        // Asked why, with the reader on: the recording's header decides.
        let why = try OpscopeBinary.run(["why", path, "decode"])
        #expect(why.stdout.hasPrefix("note: " + Self.note), "\(why.stdout)")
        let whyLive = try OpscopeBinary.run(
            ["why", "scenarios/01-chain.ops", "decode", "--speed", "8"], environment: Self.off)
        #expect(whyLive.stdout.hasPrefix("note: " + Self.note), "\(whyLive.stdout)")
        // Played back with the reader on: the recording's header decides.
        let tmux = try TmuxSession(["replay", path])
        try tmux.waitFor(text: Self.note)
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("the interface says so in its notes, and 18 shows no caption about a dispatch")
    func interface() throws {
        let tmux = try TmuxSession(
            ["scenarios/18-hundred-downloads-sync.ops", "--speed", "4"], environment: Self.off)
        try tmux.waitFor(text: Self.note)
        let end = try tmux.waitFor("18 to end", timeout: 90) { LibraryInterfaceTests.isOver($0) }
        #expect((end.components(separatedBy: "\n").first ?? "").contains("dispatches unobserved"), "\(end)")
        #expect(end.contains("dl100, the last one added, starts"), "\(end)")
        #expect(!end.contains("the queue dispatched four"))
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }
}
