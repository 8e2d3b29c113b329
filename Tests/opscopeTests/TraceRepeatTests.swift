import Foundation
import Testing

/// `opscope trace FILE --repeat N`, run as a process: what it refuses, a
/// library file that holds every time, a real race whose counts must add
/// up whichever way it goes, stalls, and the main queue across runs.
@Suite("opscope trace --repeat")
struct TraceRepeatTests {
    static let chain = "scenarios/01-chain.ops"

    @Test(
        "a bad --repeat, or one with a recording or a format that draws one run, is a usage error",
        arguments: [
            (["--repeat", "0", chain], "'--repeat' is a whole number from 1 to 10000, not '0'"),
            (["--repeat", "10001", chain], "'--repeat' is a whole number from 1 to 10000, not '10001'"),
            (["--repeat", "many", chain], "'--repeat' is a whole number from 1 to 10000, not 'many'"),
            (["--repeat", "3", "run.jsonl"], "'--repeat' goes with a scenario file: a recording is one run"),
            (
                ["--repeat", "3", "--format", "chrome", chain],
                "'--repeat' writes a summary of the runs as 'text' or 'jsonl', not 'chrome', which draws one run"
            ),
            (["--format", "timeline", "--repeat", "3", chain], "as 'text' or 'jsonl', not 'timeline'"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try OpscopeBinary.run(["trace"] + arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("opscope: error: "))
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }

    @Test("the help names --repeat")
    func help() throws {
        let result = try OpscopeBinary.run(["trace", "--help"])
        #expect(result.stdout.contains("opscope trace FILE --repeat N [--format text|jsonl] [--speed X]"))
        #expect(result.stdout.contains("--repeat N            run the file N times"))
    }

    @Test(
        "a library file repeated holds every expectation every time, with one start order; no progress off a terminal")
    func deterministicLibraryFile() throws {
        let text = try OpscopeBinary.run(["trace", "--speed", "16", "--repeat", "3", Self.chain])
        #expect(text.status == 0, "stdout: \(text.stdout) stderr: \(text.stderr)")
        #expect(text.stdout.hasPrefix("3 runs of \(Self.chain) at speed 16: 3 completed\n"))
        for claim in ["fetch before decode", "decode before save", "order fetch, decode, save", "finished save"] {
            #expect(text.stdout.contains("  ✓ expect \(claim) — held 3 of 3\n"))
        }
        #expect(text.stdout.contains("start order: the same in every run\n  3 runs  fetch, decode, save\n"))
        #expect(text.stdout.hasSuffix("3 of 3 runs passed; 4 of 4 expectations held in every run\n"))
        #expect(text.stderr.isEmpty, "no progress line into a pipe")

        let jsonl = try OpscopeBinary.run(["trace", "--speed", "16", "--repeat", "3", "--format", "jsonl", Self.chain])
        #expect(jsonl.status == 0)
        let objects = try Self.objects(jsonl.stdout)
        #expect(objects.filter { $0["kind"] as? String == "expectation" }.map { $0["held"] as? Int } == [3, 3, 3, 3])
        let orders = objects.filter { $0["kind"] as? String == "order" }
        #expect(orders.count == 1)
        #expect(orders.first?["order"] as? [String] == ["fetch", "decode", "save"])
        #expect(objects.last?["kind"] as? String == "summary")
        #expect(objects.last?["status"] as? Int == 0)
        #expect(jsonl.stderr.isEmpty)
    }

    @Test("a real race: each expectation's counts add up to the runs, and the status is 1 exactly when one failed")
    func race() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        // Two operations on a queue with room for both and no dependency:
        // which posts isExecuting first is the engine's to decide.
        let path = try scratch.write(
            "race.ops",
            """
            queue q max 2
            op a work 20ms
            op b work 20ms
            expect order a, b
            expect finished a

            """)
        let runs = 5
        let result = try OpscopeBinary.run(["trace", "--speed", "4", "--repeat", "\(runs)", "--format", "jsonl", path])
        let objects = try Self.objects(result.stdout)
        let expectations = objects.filter { $0["kind"] as? String == "expectation" }
        #expect(expectations.count == 2)
        var failedAny = false
        for expectation in expectations {
            let held = try #require(expectation["held"] as? Int)
            let failed = try #require(expectation["failed"] as? Int)
            #expect(held + failed == runs)
            #expect((expectation["failedRuns"] as? [Int])?.count == failed)
            #expect((expectation["firstFailure"] is NSNull) == (failed == 0))
            failedAny = failedAny || failed > 0
        }
        let orders = objects.filter { $0["kind"] as? String == "order" }
        #expect(orders.reduce(0) { $0 + ($1["runs"] as? Int ?? 0) } == runs)
        #expect(Set(orders.compactMap { $0["order"] as? [String] }).isSubset(of: [["a", "b"], ["b", "a"]]))
        let summary = try #require(objects.last)
        #expect(summary["kind"] as? String == "summary")
        #expect(summary["runs"] as? Int == runs)
        #expect((summary["passed"] as? Int ?? -1) + (summary["failed"] as? Int ?? -1) == runs)
        #expect(summary["orders"] as? Int == orders.count)
        #expect(result.status == (failedAny ? 1 : 0), "stdout: \(result.stdout)")
        #expect(summary["status"] as? Int == Int(result.status))

        let text = try OpscopeBinary.run(["trace", "--speed", "4", "--repeat", "\(runs)", path])
        let held = text.stdout.split(separator: "\n").filter {
            $0.hasPrefix("  ✓ expect ") || $0.hasPrefix("  ✗ expect ")
        }
        #expect(held.count == 2)
        let failedLines = held.filter { $0.hasPrefix("  ✗") }
        #expect(failedLines.allSatisfy { $0.contains("; failed in run") })
        #expect(held.filter { $0.hasPrefix("  ✓") }.allSatisfy { $0.hasSuffix("held \(runs) of \(runs)") })
        #expect(text.status == (failedLines.isEmpty ? 0 : 1), "stdout: \(text.stdout)")
    }

    @Test("stalls are counted per run: one the file expects passes, one it does not fails")
    func stalls() throws {
        let expected = try OpscopeBinary.run([
            "trace", "--speed", "8", "--repeat", "2", "scenarios/06-forgotten-finish.ops",
        ])
        #expect(expected.status == 0, "stdout: \(expected.stdout)")
        #expect(
            expected.stdout.hasPrefix(
                "2 runs of scenarios/06-forgotten-finish.ops at speed 8: 2 stalled (runs 1 and 2)\n"))
        #expect(expected.stdout.contains("    broken: it never posted isFinished\n"))

        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("stall.ops", "queue q suspended\nop a work 10ms\n")
        let unexpected = try OpscopeBinary.run(["trace", "--repeat", "2", path])
        #expect(unexpected.status == 1)
        #expect(
            unexpected.stdout.contains(": 2 stalled (runs 1 and 2), each on an operation no 'expect stuck' names\n"))
        #expect(unexpected.stdout.hasSuffix("0 of 2 runs passed\n"))
    }

    @Test("a main queue is OperationQueue.main in every run")
    func mainQueue() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "8", "--repeat", "2", "scenarios/08-main-queue.ops"])
        #expect(result.status == 0, "stdout: \(result.stdout)")
        #expect(result.stdout.contains("  ✓ expect finished show — held 2 of 2\n"))
    }

    @Test("Ctrl-C writes the summary of the runs that ended and exits 130")
    func interrupted() throws {
        let result = try OpscopeBinary.run(
            ["trace", "--speed", "16", "--repeat", "1000", Self.chain], signal: (SIGINT, 1.0))
        #expect(result.status == 130)
        let ran = Self.ranBefore(result.stdout)
        #expect(result.stdout.hasPrefix("\(ran) run\(ran == 1 ? "" : "s") of \(Self.chain) at speed 16: "))
        let last =
            switch ran {
            case 0: "stopped by SIGINT before the first of 1000 runs ended\n"
            case 1: "stopped by SIGINT after 1 of 1000 runs: the summary is of that one\n"
            default: "stopped by SIGINT after \(ran) of 1000 runs: the summary is of those \(ran)\n"
            }
        #expect(result.stdout.hasSuffix(last), "stdout: \(result.stdout)")
    }

    /// The runs a summary counts (its first line's number).
    static func ranBefore(_ summary: String) -> Int {
        Int(summary.prefix { $0 != " " }) ?? -1
    }

    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
    }
}
