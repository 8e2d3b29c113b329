import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `opscope trace` shows a run as it goes on a terminal, and a trace
/// stopped by a signal keeps what it had written: complete lines (for
/// jsonl, the header first), exit 128 + the signal.
@Suite("a trace stopped, watched as it goes, or quiet")
struct TraceInterruptionTests {
    /// Two short operations, then one that works for 30 s.
    static let long = """
        queue q max 2
        op a work 1ms
        op b work 1ms after a
        op slow work 30s after b
        """

    struct Stop: CustomTestStringConvertible, Sendable {
        let format: String
        let signal: Int32
        let name: String
        var testDescription: String { "\(format), \(name)" }
    }

    static let stops = [
        Stop(format: "jsonl", signal: SIGTERM, name: "SIGTERM"), Stop(format: "text", signal: SIGINT, name: "SIGINT"),
        Stop(format: "chrome", signal: SIGHUP, name: "SIGHUP"),
        Stop(format: "timeline", signal: SIGTERM, name: "SIGTERM"),
    ]

    @Test("stopped by a signal, a trace writes what it had and exits 128 + the signal", arguments: stops)
    func aStoppedTraceKeepsItsLines(_ stop: Stop) throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("long.ops", Self.long)
        let started = Date()
        let result = try OpscopeBinary.run(
            ["trace", "--format", stop.format, path], timeout: 20, signal: (stop.signal, after: 2))
        #expect(Date().timeIntervalSince(started) < 15, "the trace did not end soon after \(stop.name)")
        #expect(result.status == 128 + stop.signal, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        switch stop.format {
        case "jsonl":
            let objects = try lines.map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
            #expect(objects.first?["kind"] as? String == "header")
            #expect(objects.contains { $0["op"] as? String == "b" && $0["key"] as? String == "isFinished" })
            #expect(!objects.contains { $0["kind"] as? String == "end" })
            #expect(result.stderr.contains("opscope: trace stopped by SIGTERM"))
        case "chrome":
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect((object?["traceEvents"] as? [Any])?.isEmpty == false, "not a closed trace: \(result.stdout)")
        default:
            #expect(lines.last?.hasPrefix("run stopped by \(stop.name) (its last notification at ") == true)
            #expect(!result.stdout.contains("expectations:"))
        }
    }

    @Test("stopped while a main-queue operation holds the main thread, the trace still keeps its complete lines")
    func aFrozenTraceIsWrittenByTheWatch() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write(
            "freeze.ops", "queue ui main\nop first work 1ms\nop freeze on ui work 30s after first\n")
        let started = Date()
        let result = try OpscopeBinary.run(
            ["trace", "--format", "jsonl", path], timeout: 20, signal: (SIGTERM, after: 2))
        #expect(Date().timeIntervalSince(started) < 15, "the trace did not end soon after SIGTERM")
        #expect(result.status == 143, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("the main thread did not answer within 0.5 s"))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix(#"{"kind":"header""#) == true)
        for line in lines {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any], "\(line)")
        }
    }

    @Test("on a terminal a trace shows each notification as the run goes")
    func aTraceOnATerminalShowsTheRunAsItGoes() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("long.ops", Self.long)
        let tmux = try TmuxSession(["trace", path], columns: 120, rows: 40)
        // b finishes in the first second; the run goes on for 30 s.
        try tmux.waitFor("b's finish on the screen while the run goes on", timeout: 10) { text in
            text.split(separator: "\n").contains { $0.contains(" b ") && $0.contains("isFinished") }
        }
        try tmux.send("C-c")
        let text = try tmux.waitFor(text: "[exit 130]")
        #expect(text.contains("run stopped by SIGINT"))
    }

    static let farAdd = "queue q\nop a work 1ms\nop b work 1ms\nat 60s add b\n"

    @Test("a quiet run on a terminal says what it waits for and how long, and the line goes with the next output")
    func aQuietRunSaysWhatItWaitsFor() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("far.ops", Self.farAdd)
        let tmux = try TmuxSession(["trace", path], columns: 120, rows: 40)
        let text = try tmux.waitFor(text: "waiting for the timed action 'add b' at 60.000s: ", timeout: 15)
        #expect(text.contains("from now at speed 1 (Ctrl-C stops the trace)"))
        try tmux.send("C-c")
        let end = try tmux.waitFor(text: "[exit 130]")
        #expect(!end.contains("waiting for the timed action"))
    }

    @Test("the waiting line never goes into a pipe")
    func theWaitingLineIsForATerminalOnly() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("far.ops", Self.farAdd)
        let result = try OpscopeBinary.run(["trace", path], timeout: 20, signal: (SIGINT, after: 4))
        #expect(result.status == 130)
        #expect(!result.stdout.contains("waiting for") && !result.stderr.contains("waiting for"))
    }
}
