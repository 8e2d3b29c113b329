import Foundation
import Testing

/// A large file says how far the handover to Foundation is while it goes:
/// `trace` on the terminal only, never in the stream; the interface in its
/// status line.
@Suite("the progress of a large build")
struct BuildProgressLineTests {
    /// 200,000 independent operations: a handover of seconds in a debug build.
    static let large = "queue q\n" + (0..<200_000).map { "op o\($0) work 0ms\n" }.joined()

    @Test("standard error a terminal, the stream in a file: the line shows, then is erased; the stream has none of it")
    func aLineOnTheTerminalWhileBuilding() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("large.ops", Self.large)
        let stream = scratch.directory.appendingPathComponent("out.jsonl").path
        let session = try TmuxSession(
            ["trace", "--format", "jsonl", path], columns: 100, rows: 10, startDelay: 1,
            standardOutput: stream)
        // On a busy machine the line can come and go between two looks at
        // the screen: what the terminal was sent says it was drawn.
        let drawn = try session.recordOutput()
        defer { try? FileManager.default.removeItem(at: drawn) }
        let end = try session.waitFor(text: "[exit 0]", timeout: 300)
        let sent = String(decoding: try Data(contentsOf: drawn), as: UTF8.self)
        #expect(sent.contains("building 200,000 operations\u{2026} "), "drawn while building:\n\(sent.prefix(400))")
        #expect(!end.contains("building"), "erased once done:\n\(end)")
        #expect(end.contains("run completed at"))
        let written = try String(contentsOfFile: stream, encoding: .utf8)
        #expect(written.hasPrefix(#"{"kind":"header""#))
        #expect(!written.contains("building"))
    }

    @Test("standard error not a terminal: no line")
    func noLineWithoutATerminal() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("large.ops", Self.large)
        let result = try OpscopeBinary.run(["trace", "--format", "jsonl", path], timeout: 300, outputTo: "/dev/null")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("run completed at"))
        #expect(!result.stderr.contains("building") && !result.stderr.contains("\r"))
    }

    @Test("the interface says how far the build is while its start holds the main thread, and no more once done")
    func theInterfaceShowsTheBuild() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("large.ops", "queue q\n" + (0..<100_000).map { "op o\($0) work 0ms\n" }.joined())
        let tmux = try TmuxSession([path], columns: 100, rows: 30)
        try tmux.waitFor(text: "building 100,000 operations\u{2026} ", timeout: 120)
        try tmux.waitFor("the build to be done", timeout: 300) { !$0.contains("building") && $0.contains("Pending") }
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]", timeout: 60)
    }
}
