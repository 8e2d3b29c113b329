import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--watch`, end to end: the interface in tmux and `trace` as a process,
/// with the file edited by a script as a person's editor would save it
/// (an append in place, a new file renamed over the old one).
@Suite("watch mode, in tmux and as a process", .serialized)
struct WatchInterfaceTests {
    /// A scratch copy of a library file, to edit.
    static func libraryCopy() throws -> (ScratchFiles, String) {
        let scratch = try ScratchFiles()
        let text = try String(
            contentsOf: OpscopeBinary.packageRoot.appendingPathComponent("scenarios/01-chain.ops"), encoding: .utf8)
        return (scratch, try scratch.write("01-chain.ops", text))
    }

    /// Appends `line` to the file, as `echo LINE >> FILE` does.
    static func append(_ line: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data((line + "\n").utf8))
        try handle.close()
    }

    /// Saves `text` as an editor that writes a new file and renames it
    /// over the old one does.
    static func saveByRename(_ text: String, to path: String) throws {
        let temporary = path + ".swp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, path) == 0)
    }

    @Test("a save reruns the file, a broken save shows its caret, d compares, q restores the terminal")
    func editedWhileOpen() throws {
        let (scratch, path) = try Self.libraryCopy()
        defer { scratch.remove() }
        let tmux = try TmuxSession([path, "--watch", "--speed", "16"], columns: 80, rows: 24)
        try tmux.waitFor("the run to end") { $0.contains("ended") && $0.contains("✓4") }
        // Select decode (the second card of Finished): the selection is
        // kept by name across the saves.
        try tmux.send("Down")
        try tmux.waitFor(text: "Inspector: decode")

        try Self.append("op upload work 100ms after save", to: path)
        var screen = try tmux.waitFor(text: "reloaded 01-chain.ops: 1 change: upload added")
        screen = try tmux.waitFor(text: "Finished 4")
        #expect(screen.contains("Inspector: decode"))

        try Self.append("op bad work 100ms after nosuch", to: path)
        _ = try tmux.waitFor(text: "error: unknown operation 'nosuch'")
        // The panel and the status line are one frame, which a capture may cut.
        screen = try tmux.waitFor(text: "01-chain.ops has an error")
        let lines = try tmux.screen()
        let source = try #require(lines.firstIndex { $0.contains("op bad work 100ms after nosuch") })
        let caret = lines[source + 1]
        let caretColumn = caret.firstIndex(of: "^").map { caret.distance(from: caret.startIndex, to: $0) }
        let nameColumn = lines[source].range(of: "nosuch").map {
            lines[source].distance(from: lines[source].startIndex, to: $0.lowerBound)
        }
        #expect(caretColumn != nil && caretColumn == nameColumn, "the caret stands under the name:\n\(screen)")
        #expect(screen.contains("opscope · Download, decode, save"), "the interface is still there")
        #expect(screen.contains("01-chain.ops has an error"))

        let fixed = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "after nosuch", with: "after upload")
        try Self.saveByRename(fixed, to: path)
        try tmux.waitFor(text: "reloaded 01-chain.ops: 1 change: bad added")
        try tmux.waitFor(text: "Finished 5")
        #expect(try tmux.screenText().contains("Errors in the saved file") == false)

        try tmux.send("d")
        screen = try tmux.waitFor(text: "This run against the run before it")
        #expect(screen.contains("the runs differ"), "bad is only in this run's file:\n\(screen)")
        try tmux.send("Escape")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("a save with no change reruns the file, and d says whether the two runs agree")
    func savedUnchanged() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        // One operation: its two runs take the same steps.
        let path = try scratch.write("one.ops", "queue q serial\nop only work 200ms\n")
        let tmux = try TmuxSession([path, "--watch"], columns: 80, rows: 24)
        try tmux.waitFor(text: "ended")
        try tmux.send("d")
        try tmux.waitFor(text: "no run before this one to compare with")
        try Self.saveByRename("queue q serial\nop only work 200ms\n# saved again\n", to: path)
        try tmux.waitFor(text: "reloaded one.ops: no change")
        // The message and the new run's first frame are drawn together: the
        // title is the new run's from here.
        try tmux.waitFor("the new run to end") { $0.split(separator: "\n").first?.contains("ended") == true }
        try tmux.send("d")
        try tmux.waitFor(text: "the runs agree: the same 3 steps in the same order")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("trace --watch traces again after each save, and Ctrl-C ends it with 130, a kill a supervisor can tell")
    func traceWatch() throws {
        let (scratch, path) = try Self.libraryCopy()
        defer { scratch.remove() }
        let watch = try OpscopeIntoFiles(["trace", path, "--watch", "--speed", "16"], in: scratch)
        let (out, err) = (watch.out, watch.err)
        func waitFor(_ what: String, in file: URL, count: Int = 1) throws -> String {
            try watch.waitFor(what, in: file, count: count, timeout: 20)
        }
        _ = try waitFor("4 of 4 expectations held", in: out)
        try Self.append("op upload work 100ms after save", to: path)
        var text = try waitFor("4 of 4 expectations held", in: out, count: 2)
        let separator = try #require(text.split(separator: "\n").first { $0.hasPrefix("--- ") })
        #expect(separator.hasSuffix(" saved: 1 change: upload added; traced again ---"), "\(separator)")
        #expect(text.contains("upload  isFinished      false → true"))
        // A broken save: its diagnostics, and nothing traced.
        try Self.append("op bad after nosuch", to: path)
        text = try waitFor("error: unknown operation 'nosuch'", in: err)
        #expect(text.contains("op bad after nosuch"))
        _ = try waitFor("nothing traced ---", in: out)
        #expect(watch.stop(with: SIGINT) == 130, "Ctrl-C ends the watch with 128 + SIGINT, whatever the last save was")
    }

    @Test(
        "--watch goes with a scenario file, traced once a save",
        arguments: [
            (["trace", "FILE", "--watch", "--repeat", "3"], "does not go with '--repeat'"),
            (["trace", "RUN", "--watch"], "'--watch' goes with a scenario file"),
            (["RUN", "--watch"], "'--watch' goes with a scenario file"),
            (["--watch"], "'--watch' needs a scenario file"),
        ])
    func watchUsageErrors(arguments: [String], message: String) throws {
        let (scratch, path) = try Self.libraryCopy()
        defer { scratch.remove() }
        let recording = try scratch.write("run.jsonl", "")
        let result = try OpscopeBinary.run(
            arguments.map { $0 == "FILE" ? path : $0 == "RUN" ? recording : $0 }, timeout: 20)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
