import EventFixtures
import Foundation
import Testing

/// `opscope trace`, run as a process on real scenarios.
@Suite("opscope trace")
struct TraceTests {
    @Test("text trace: a header, one line per event, the expectations, exit 0")
    func textTrace() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "8", "scenarios/01-chain.ops"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("   seq     time  kind") == true)
        #expect(
            lines.contains {
                $0.contains(" fetch ") && $0.contains(" isExecuting ") && $0.contains(" false → true  on thread #")
            })
        #expect(lines.contains { $0.contains("completion") && $0.contains("save") })
        #expect(result.stdout.contains("run completed at"))
        #expect(result.stdout.contains("✓ expect fetch before decode"))
        #expect(result.stdout.contains("4 of 4 expectations held"))
    }

    @Test("jsonl trace: a header with the scenario, then every line a JSON object, seq increases, the last is the end")
    func jsonlTrace() throws {
        let result = try OpscopeBinary.run(["trace", "--format", "jsonl", "--speed", "8", "scenarios/03-cancel.ops"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count > 10)
        // The recording stands alone: its first line carries the scenario.
        let header = try #require(
            try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(header["kind"] as? String == "header")
        #expect(header["format"] as? String == "opscope-recording")
        #expect(header["version"] as? Int == 3)
        #expect(header["language"] as? Int == 1)
        #expect(header["path"] as? String == "scenarios/03-cancel.ops")
        let source = try String(
            contentsOf: OpscopeBinary.packageRoot.appendingPathComponent("scenarios/03-cancel.ops"), encoding: .utf8)
        #expect(header["source"] as? String == source)
        var lastSeq = 0
        var objects: [[String: Any]] = []
        for line in lines.dropFirst() {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
            let seq = try #require(object["seq"] as? Int)
            #expect(seq > lastSeq)
            lastSeq = seq
            #expect(object["t"] is Double || object["t"] is Int)
            objects.append(object)
        }
        #expect(objects.last?["kind"] as? String == "end")
        #expect(objects.last?["status"] as? String == "completed")
        #expect(
            objects.contains {
                $0["kind"] as? String == "action" && $0["action"] as? String == "cancel"
                    && $0["target"] as? String == "queued"
            })
        // The report goes to standard error, so standard output stays JSON Lines.
        #expect(result.stderr.contains("expectations:"))
    }

    @Test("a failing expectation exits 1 and says why")
    func failingExpectation() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write(
            "fail.ops",
            """
            queue q serial
            op a work 50ms
            op b work 50ms
            expect b before a

            """)
        let result = try OpscopeBinary.run(["trace", "--speed", "4", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("✗ expect b before a"))
        #expect(result.stdout.contains("0 of 1 expectation held"))
    }

    @Test("a stall that the file expects exits 0; one it does not expect exits 1 with reasons")
    func stalls() throws {
        let expected = try OpscopeBinary.run([
            "trace", "--speed", "8", "--verbose", "scenarios/06-forgotten-finish.ops",
        ])
        #expect(expected.status == 0, "stdout: \(expected.stdout)")
        #expect(expected.stdout.contains("run stalled at"))
        #expect(
            expected.stdout.contains(
                "  2 operations held: broken never posted isFinished: it holds a slot of q and does nothing — broken "
                    + "and next\n"))
        #expect(expected.stdout.contains("    broken: it never posted isFinished\n"))
        #expect(expected.stdout.contains("    next: it waits for broken, which never finishes\n"))

        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write(
            "stall.ops",
            """
            queue q suspended
            op a work 10ms

            """)
        let unexpected = try OpscopeBinary.run(["trace", "--speed", "8", path])
        #expect(unexpected.status == 1)
        #expect(unexpected.stdout.contains("  1 operation held: q is suspended and nothing resumes it — a\n"))
        #expect(
            unexpected.stdout.contains(
                "    q suspended from the start (its queue line, line 1); nothing left in the file resumes it\n"))
    }

    @Test("a timed action after every operation has finished does not hold the run, and the report says so")
    func farFutureActionDoesNotHoldTheRun() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write(
            "far.ops",
            """
            queue q
            op a work 10ms
            at 1000000000s cancel a

            """)
        let started = Date()
        let result = try OpscopeBinary.run(["trace", path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(result.stdout.contains("run completed at "))
        #expect(
            result.stdout.contains(
                "1 timed action came after every operation had finished: nothing was left for it to change"))
        #expect(!result.stdout.contains("cancel"), "the cancel never ran, so the stream must not show it")
    }

    @Test("--format chrome writes Trace Event Format JSON: slices on thread tracks, flows for dependencies, counters")
    func chromeFormat() throws {
        func events(_ file: String) throws -> [[String: Any]] {
            let result = try OpscopeBinary.run(["trace", "--speed", "4", "--format", "chrome", file])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stderr.contains("expectations held"), "the report goes to standard error")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return try #require(object?["traceEvents"] as? [[String: Any]])
        }
        let chain = try events("scenarios/01-chain.ops")
        let slices = chain.filter { $0["ph"] as? String == "X" }
        #expect(slices.compactMap { $0["name"] as? String } == ["fetch", "decode", "save"])
        // Each slice is on a named thread track (a serial queue may use a
        // different worker each time: one at a time is all it promises).
        let named = Set(
            chain.filter {
                $0["ph"] as? String == "M" && $0["pid"] as? Int == 1 && $0["name"] as? String == "thread_name"
            }
            .compactMap { $0["tid"] as? Int })
        #expect(slices.allSatisfy { named.contains($0["tid"] as? Int ?? -1) })
        let times = slices.compactMap { ($0["ts"] as? Int, $0["dur"] as? Int) }.map { ($0.0 ?? 0, $0.1 ?? 0) }
        #expect(times.count == 3 && times[0].0 + times[0].1 <= times[1].0 && times[1].0 + times[1].1 <= times[2].0)
        let args = try #require(slices[1]["args"] as? [String: Any])
        #expect(args["queue"] as? String == "net")
        #expect(args["cancelled"] as? Bool == false)
        // fetch → decode and decode → save, each a start and a finish bound to the slice.
        #expect(chain.filter { $0["ph"] as? String == "s" }.count == 2)
        #expect(chain.filter { $0["ph"] as? String == "f" && $0["bp"] as? String == "e" }.count == 2)
        #expect(
            chain.contains { $0["ph"] as? String == "M" && ($0["args"] as? [String: Any])?["name"] as? String == "net" }
        )
        // A counter per queue, which a viewer names "net running" (and "net cap").
        #expect(
            chain.contains {
                $0["ph"] as? String == "C" && ($0["name"] as? String) == "net"
                    && ($0["args"] as? [String: Any])?["running"] is Int
            })

        let blocks = try events("scenarios/25-block-operation.ops")
        #expect(blocks.contains { $0["cat"] as? String == "block" && $0["ph"] as? String == "X" })
        // Eight downloads in flight, on four rows of their own for a cap of 4,
        // and eight start() calls on the pool's threads.
        let async = try events("scenarios/04-async.ops")
        let inFlight = async.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "asynchronous operation" }
        #expect(inFlight.count == 8)
        #expect(Set(inFlight.compactMap { $0["tid"] as? Int }).count == 4)
        #expect(async.filter { $0["ph"] as? String == "i" && $0["cat"] as? String == "start" }.count == 8)
        #expect(!async.contains { ["b", "e"].contains($0["ph"] as? String) })
        // 06 stalls on an operation that never posts isFinished: drawn to the end.
        let stalled = try OpscopeBinary.run([
            "trace", "--speed", "8", "--format", "chrome", "scenarios/06-forgotten-finish.ops",
        ])
        let object = try JSONSerialization.jsonObject(with: Data(stalled.stdout.utf8)) as? [String: Any]
        let open = (object?["traceEvents"] as? [[String: Any]] ?? []).filter {
            $0["ph"] as? String == "X" && ($0["args"] as? [String: Any])?["unfinished"] as? Bool == true
        }
        #expect(open.count == 1 && open.first?["name"] as? String == "broken")
    }

    @Test("a recording is traced again without running: its jsonl byte for byte, chrome, timeline, the report")
    func traceOfARecording() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let traced = try OpscopeBinary.run(["trace", "--format", "jsonl", "--speed", "8", "scenarios/05-priority.ops"])
        #expect(traced.status == 0)
        let path = try scratch.write("run.jsonl", traced.stdout)
        let again = try OpscopeBinary.run(["trace", "--format", "jsonl", path])
        #expect(again.status == 0 && again.stdout == traced.stdout)
        let text = try OpscopeBinary.run(["trace", path])
        #expect(text.status == 0 && text.stdout.contains("1 of 1 expectation held"))
        let chrome = try OpscopeBinary.run(["trace", "--format", "chrome", path])
        let object = try JSONSerialization.jsonObject(with: Data(chrome.stdout.utf8)) as? [String: Any]
        #expect((object?["traceEvents"] as? [[String: Any]])?.filter { $0["ph"] as? String == "X" }.count == 4)
        let timeline = try OpscopeBinary.run(["trace", "--format", "timeline", "--width", "60", path])
        #expect(timeline.stdout.hasPrefix("timeline · 0s to "))
        // Cut short: what comes before the broken line, and a warning that names it.
        let lines = traced.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = try scratch.write("cut.jsonl", lines.prefix(8).joined(separator: "\n") + "\n{\"seq\":")
        let partial = try OpscopeBinary.run(["trace", cut])
        #expect(partial.status == 1)
        #expect(partial.stderr.contains("cut.jsonl:9:") && partial.stderr.contains("the trace has the 7 notifications"))
        #expect(partial.stdout.contains("run did not end"))
        let speed = try OpscopeBinary.run(["trace", "--speed", "2", path])
        #expect(speed.status == 2 && speed.stderr.contains("a recording's times are already set"))
    }

    /// Every library file's chrome export, read as a trace viewer reads it
    /// (`ChromeTraceCheck`): each event has ph, ts, pid and tid; slices on a
    /// track never overlap unless nested, and nothing of another operation
    /// nests in an operation's slice; every arrow leaves from its
    /// dependency's own slice and arrives in its dependent's, as the viewer
    /// binds them; an asynchronous operation's time in flight is on no
    /// thread's track; counters are "Q running" and "Q cap"; no global
    /// instant; every track and process named. And there is an arrow for
    /// each dependency whose two operations both ran.
    @Test("every library file's chrome export holds the trace viewer's rules", arguments: LibraryInterfaceTests.library)
    func chromeExportOfTheLibrary(_ path: String) throws {
        let scenario = try LibraryCaptionTests.scenario(path)
        let result = try OpscopeBinary.run(["trace", "--speed", "8", "--format", "chrome", path], timeout: 120)
        #expect(result.status != 2, "\(path): \(result.stderr)")
        let check = ChromeTraceCheck(json: Data(result.stdout.utf8), queues: scenario.queues.map(\.name))
        #expect(check.problems.isEmpty, "\(path):\n\(check.problems.joined(separator: "\n"))")
        let ran = Set(check.slices.filter(\.isExecution).map(\.operation))
        var expected: [String] = []
        for spec in scenario.operations where ran.contains(spec.name) {
            for dependency in spec.dependencies where ran.contains(scenario[operation: dependency].name) {
                expected.append("\(scenario[operation: dependency].name) → \(spec.name)")
            }
        }
        #expect(check.arrows.map { "\($0.dependency) → \($0.dependent)" }.sorted() == expected.sorted(), "\(path)")
        let counters = Set(scenario.queues.flatMap { ["\($0.name) running", "\($0.name) cap"] })
        #expect(check.counterTracks.isSubset(of: counters), "\(path): \(check.counterTracks.sorted())")
        // The asynchronous operations that ran: each one slice in flight,
        // each start() an instant on the thread that called it.
        for spec in scenario.operations where spec.body.isAsync && ran.contains(spec.name) {
            let own = check.slices.filter { $0.operation == spec.name && $0.isExecution }
            #expect(own.count == 1 && check.threadNames[own[0].track]?.contains(" · in flight ") == true, "\(path)")
            let calls = check.slices.filter { $0.isInstant && $0.name == "\(spec.name) start()" }
            #expect(
                calls.count == 1 && check.processNames[calls[0].track.pid]?.hasPrefix("threads: ") == true,
                "\(path): \(spec.name)")
        }
    }

    @Test("--format timeline draws a lane per operation within the width, then the report")
    func timelineFormat() throws {
        let result = try OpscopeBinary.run([
            "trace", "--speed", "4", "--format", "timeline", "--width", "80", "scenarios/02-cap.ops",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.components(separatedBy: "\n")
        #expect(lines.first?.hasPrefix("timeline · 0s to ") == true)
        _ = try #require(lines.firstIndex(of: "expectations:"))
        #expect(lines.allSatisfy { $0.count <= 80 }, "the report keeps to the width too")
        #expect(lines.contains { $0.hasPrefix("  running  ") && $0.contains("2") && !$0.contains("3") })
        #expect(lines.filter { $0.contains("█") && $0.hasSuffix("✓") }.count == 6)
        // The narrowest width: the expectations' long lines are broken.
        let narrow = try OpscopeBinary.run([
            "trace", "--speed", "4", "--format", "timeline", "--width", "40", "scenarios/03-cancel.ops",
        ])
        let narrowLines = narrow.stdout.components(separatedBy: "\n")
        #expect(narrowLines.allSatisfy { $0.count <= 40 }, "\(narrowLines.filter { $0.count > 40 })")
        #expect(narrow.stdout.contains("expect queued before dependent"))
    }

    @Test("faster than a file's 'up to', expectations are shown but do not decide the exit status")
    func promisedSpeed() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        // A serial queue starts a before b: the expectation is false at every speed.
        let path = try scratch.write(
            "promise.ops",
            """
            speed 1 up to 2
            queue q max 1
            op a work 10ms
            op b work 10ms
            expect b before a

            """)
        let within = try OpscopeBinary.run(["trace", "--speed", "2", path])
        #expect(within.status == 1)
        #expect(!within.stderr.contains("warning"))
        #expect(!within.stdout.contains("not counted"))
        let faster = try OpscopeBinary.run(["trace", "--speed", "4", path])
        #expect(faster.status == 0, "stderr: \(faster.stderr)")
        #expect(
            faster.stderr.hasPrefix(
                "opscope: warning: \(path) promises its expectations only up to speed 2 (its 'speed' statement); "
                    + "at --speed 4 they are judged and reported, but do not decide the exit status\n"))
        #expect(faster.stdout.contains("  ✗ expect b before a — "))
        #expect(
            faster.stdout.contains(
                "0 of 1 expectation held\n  (not counted: the file promises them only up to speed 2)"))
    }

    @Test("a chain of 50,000 operations ends with exit 0: letting go of it does not recurse")
    func aLongChainEndsCleanly() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        var text = "queue q serial\nop o0 work 0ms\n"
        for i in 1..<50_000 { text += "op o\(i) work 0ms after o\(i - 1)\n" }
        let path = try scratch.write("chain.ops", text)
        let result = try OpscopeBinary.run(["trace", "--format", "jsonl", path])
        #expect(result.status == 0, "a signal is 128 + its number: \(result.status)")
        // Each operation dispatched, started and finished once. (How many
        // turn ready at their add varies: a link whose dependency already
        // finished is added ready.)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.filter { $0.contains(#""kind":"dispatched""#) }.count == 50_000)
        #expect(lines.filter { $0.contains(#""key":"isExecuting","old":false,"new":true"#) }.count == 50_000)
        #expect(lines.filter { $0.contains(#""key":"isFinished","old":false,"new":true"#) }.count == 50_000)
        #expect(result.stdout.hasSuffix(#""kind":"end","status":"completed"}"# + "\n"))
    }

    @Test("standard output that cannot be written: a clear error and exit 1, in both formats")
    func unwritableOutput() throws {
        for format in ["text", "jsonl"] {
            let result = try OpscopeBinary.run(
                ["trace", "--speed", "16", "--format", format, "scenarios/01-chain.ops"], outputTo: "/dev/full")
            #expect(result.status == 1, "\(format)")
            #expect(
                result.stderr.contains(
                    "opscope: error: could not write the trace to standard output: No space left on device"))
        }
    }

    @Test("a file with errors is not run: diagnostics and exit 2")
    func errorsAreNotRun() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("cycle.ops", "op a work 1ms after b\nop b work 1ms after a\n")
        let result = try OpscopeBinary.run(["trace", path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("error:"))
        #expect(result.stderr.contains("a → b → a") || result.stderr.contains("b → a → b"))
    }

    @Test("a main queue runs its operations on the main thread while trace runs")
    func mainQueue() throws {
        let result = try OpscopeBinary.run([
            "trace", "--format", "jsonl", "--speed", "8", "scenarios/08-main-queue.ops",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(
            result.stdout.contains("\"op\":\"show\",\"queue\":\"ui\",\"key\":\"isFinished\",\"old\":false,\"new\":true")
        )
    }
}
