import Foundation
import Testing

/// `opscope diff`, run as a process: recordings traced from the library,
/// scenario files run by the diff itself, and files that cannot be read.
@Suite("opscope diff")
struct DiffCommandTests {
    /// A recording of 01-chain, traced at speed 8.
    static func recording(in scratch: ScratchFiles) throws -> (path: String, text: String) {
        let traced = try OpscopeBinary.run(["trace", "--format", "jsonl", "--speed", "8", "scenarios/01-chain.ops"])
        #expect(traced.status == 0, "stderr: \(traced.stderr)")
        return (try scratch.write("chain.jsonl", traced.stdout), traced.stdout)
    }

    static func jsonObjects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("a recording against itself: the runs agree, exit 0, in text and in jsonl")
    func theSameRecordingAgrees() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let (path, _) = try Self.recording(in: scratch)
        let text = try OpscopeBinary.run(["diff", path, path])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(text.stdout.hasPrefix("A: \(path), a recording of scenarios/01-chain.ops — "))
        #expect(text.stdout.contains("\nsteps: the same "))
        #expect(text.stdout.contains("\noperations: no difference"))
        #expect(text.stdout.hasSuffix("every operation ends the same way\n"))
        #expect(text.stdout.split(separator: "\n").last?.hasPrefix("the runs agree: the same ") == true)
        let jsonl = try OpscopeBinary.run(["diff", "--format", "jsonl", path, path])
        #expect(jsonl.status == 0)
        let objects = try Self.jsonObjects(jsonl.stdout)
        #expect(objects.map { $0["kind"] as? String } == ["runs", "summary"])
        #expect(objects.last?["agree"] as? Bool == true)
        #expect((objects.first?["a"] as? [String: Any])?["from"] as? String == "recording")
    }

    /// Two operations at once on a queue of cap 2: which thread announces
    /// its start first is the threads' race, either way in any run. Only
    /// what holds whatever the race did is checked.
    @Test("a racy file run twice: the exit status says whether the report shows a divergence")
    func aRaceRunTwice() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("race.ops", "queue q max 2\nop a work 20ms\nop b work 20ms\n")
        let text = try OpscopeBinary.run(["diff", path, path])
        #expect(text.status == 0 || text.status == 1, "stderr: \(text.stderr)")
        #expect(text.stdout.hasPrefix("A: \(path), run at speed 1 — "))
        #expect(text.stdout.contains("\nB: \(path), run at speed 1 — "))
        let parts = text.stdout.contains("\nsteps: the runs part at step ")
        let summary = text.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect((text.status == 1) == parts)
        // A race of the two starts (or finishes) is said as a race: the
        // runs still agree on what matters.
        #expect(summary.hasPrefix(text.status == 0 ? "the runs agree" : "the runs differ: their steps"))
        #expect(!text.stdout.contains("\nfiles: "), "a file against itself says nothing of the files")
        #expect(!text.stdout.contains("  ending  "), "both operations finish in every run")

        let jsonl = try OpscopeBinary.run(["diff", "--format", "jsonl", "--speed", "4", path, path])
        #expect(jsonl.status == 0 || jsonl.status == 1)
        let objects = try Self.jsonObjects(jsonl.stdout)
        let divergence = objects.first { $0["kind"] as? String == "divergence" }
        #expect(objects.last?["kind"] as? String == "summary")
        #expect((objects.last?["agree"] as? Bool) == (jsonl.status == 0))
        #expect((divergence != nil) == (jsonl.status == 1))
        #expect((objects.first?["a"] as? [String: Any])?["speed"] as? Int == 4)
        #expect((objects.first?["tolerance"] as? [String: Any])?["floor"] as? Double == 0.04)
    }

    @Test("two files compare by operation name: what only one has makes them differ")
    func twoFilesByName() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let a = try scratch.write("a.ops", "queue q serial\nop x work 0ms\nop y work 0ms\n")
        let b = try scratch.write("b.ops", "queue q serial\nop x work 0ms\nop z work 0ms\n")
        let result = try OpscopeBinary.run(["diff", a, b])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  y          in the file  yes  no"))
        #expect(lines.contains("  z          in the file  no   yes"))
        #expect(lines.last?.contains("1 operation only in A's file; 1 operation only in B's file") == true)
    }

    /// Without the first run stopped at its end, its operation that never
    /// posts isFinished would hold OperationQueue.main, and the second
    /// run's would wait behind it for good.
    @Test("a run that holds the main queue does not hold the next")
    func theMainQueueIsLetGoBetweenRuns() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write(
            "held.ops", "queue ui main\nop broken on ui async 20ms never-finishes\nop later on ui work 0ms\n")
        let result = try OpscopeBinary.run(["diff", path, path], timeout: 20)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("\nB: \(path), run at speed 1 — 8 notifications, 2 steps, stalled at "))
    }

    @Test("a broken or hostile recording: its file, line and column, exit 2, nothing on standard output")
    func unreadableRecordings() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let (path, text) = try Self.recording(in: scratch)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = try scratch.write("cut.jsonl", lines.prefix(8).joined(separator: "\n") + "\n{\"seq\":")
        let broken = try OpscopeBinary.run(["diff", path, cut])
        #expect(broken.status == 2)
        #expect(broken.stdout.isEmpty)
        #expect(broken.stderr.contains("opscope: error: \(cut):9:"))
        #expect(broken.stderr.contains("'diff' compares whole recordings"))
        let wrongValue = try scratch.write(
            "bad.jsonl", lines.prefix(3).joined(separator: "\n") + "\n{\"seq\":1e999999,\"t\":0}\n")
        let bad = try OpscopeBinary.run(["diff", wrongValue, path])
        #expect(bad.status == 2 && bad.stdout.isEmpty)
        #expect(bad.stderr.hasPrefix("opscope: error: \(wrongValue):4:"))
        let hostile = try scratch.write("hostile.jsonl", "\u{0}{{{\"kind\":\"header\"\u{FFFF}\n")
        let garbage = try OpscopeBinary.run(["diff", "--format", "jsonl", hostile, path])
        #expect(garbage.status == 2 && garbage.stdout.isEmpty)
        #expect(garbage.stderr.hasPrefix("opscope: error: \(hostile):1"))
        let empty = try scratch.write("empty.jsonl", "")
        let none = try OpscopeBinary.run(["diff", path, empty])
        #expect(none.status == 2 && none.stderr.contains("\(empty):1: the file is empty"))
    }

    @Test("a scenario with errors: its diagnostics, exit 2, and nothing runs")
    func scenarioWithErrors() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let good = try scratch.write("good.ops", "op a work 0ms\n")
        let bad = try scratch.write("bad.ops", "op a work 0ms after nothing\n")
        let result = try OpscopeBinary.run(["diff", good, bad])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("bad.ops:1:") && result.stderr.contains("error:"))
    }

    @Test(
        "a wrong command line: one clear line and exit 2",
        arguments: [
            (["diff", "a.jsonl"], "opscope: error: 'diff' needs two runs: recordings (RUN.jsonl) or scenario files"),
            (["diff", "a.ops", "b.ops", "c.ops"], "opscope: error: 'diff' takes two runs, not 3"),
            (
                ["diff", "--format", "chrome", "a.ops", "b.ops"],
                "opscope: error: '--format' is 'text' or 'jsonl', not 'chrome'"
            ),
            (
                ["diff", "--speed", "2", "a.jsonl", "b.jsonl"],
                "opscope: error: '--speed' goes with a scenario file: a recording's times are already set"
            ),
            (["diff", "no/such.jsonl", "scenarios/01-chain.ops"], "opscope: error: no such file 'no/such.jsonl'"),
        ])
    func usage(arguments: [String], message: String) throws {
        let result = try OpscopeBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message + "\n")
        #expect(result.stdout.isEmpty)
    }
}
