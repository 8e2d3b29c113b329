import Board
import CommandSupport
import Foundation
import LifecycleEngine
import ScenarioKit

/// `opscope-bench`: the project's speed and memory figures, measured on this
/// machine against Foundation's bare engine. Meant for a release build:
/// `swift build -c release && .build/release/opscope-bench`.
@MainActor
enum BenchCommand {
    static let name = "bench"
    static let abstract = "Measure opscope against the bare engine (use a release build)"
    static let help = """
        USAGE: opscope-bench [--quick]
                             [--only engine|language|interface|table|history|scale|budget|repeat|stall|watch
                                    |graph|graphkeys|search|chain|practice|why]
                             [--chain-length N] [--seeds N] [--runs N]

        Measures, on this machine:
          engine     100,000 zero-work operations observed by opscope (operations,
                     observation, event stream, board reducer) against the same
                     plain BlockOperations on a bare OperationQueue, alternated;
                     a layered graph of 10,000 operations and 20,000 dependencies,
                     the same way; peak resident memory
          language   parsing and validating that layered scenario; 'opscope check'
                     of a small file, as a process
          interface  building and flushing one frame of 1,000 operations at
                     200×50, of the board and of the timeline (t); bytes
                     written for a one-card change and for a full redraw
                     (TERM=tmux-256color); time to the first frame; CPU while
                     paused (needs tmux); a library question from the picker
                     to its first frame (predict mode)
          table      the table view (t) of 10,000 operations: a frame at 200×50
                     sorted by waited, the order kept between frames; a re-sort
          history    a run of 100,000 zero-work operations recorded as the
                     interface records it; seeks to random moments (median and
                     worst); the resident memory the history adds beyond a run
          scale      'opscope trace --format jsonl' of 100,000 and 200,000 zero-work
                     operations against a plain-Foundation process running the same
                     graph, alternated, time and peak memory of the whole processes;
                     'opscope check' of 100,000 misspelt names
          budget     the peak memory of 'opscope trace --format jsonl' of 1,000,000
                     operations (flat, a fan-out, a serial chain: ≤ 500 bytes an
                     operation) and of 2,550,000 (< 1.5 GB), each beside the bare
                     engine's process on the same graph; the flat million's time
                     against the bare engine's (≤ 1.25×), the chain's peak against
                     Foundation's floor (--floor-process: the same operations made
                     and wired, never added; ≤ 1.25×); a few minutes
          repeat     'opscope trace --repeat 20' of a library file against 20 single
                     'opscope trace' processes of it, alternated (≤ 1.05×)
          stall      grouping a stall of 100,000 stuck operations by root cause and
                     telling it in words (a deadlock through a suspension, a chain
                     behind an operation that never posts isFinished), and the same
                     at 50,000: < 100 ms, and linear
          watch      from a save of a library file to the new run's first frame
                     (--watch), in this process: the kernel's event, the quiet
                     period, the file read and checked, the run started on the
                     real engine, the frame flushed to a headless terminal
          graph      the dependency graph's layout of 10,000 operations and 20,000
                     dependencies (≤ 300 ms) and of 1,000 (≤ 30 ms); every key of
                     the graph view on a run of 100,000 operations, the first G
                     and the first H included, key and frame (≤ 100 ms each;
                     alone: --only graphkeys)
          why        'opscope why' of the last operation of a 100,000-operation
                     chain against 'opscope trace --format jsonl' of it, whole
                     processes, alternated (≤ 2×); not in the default set
          search     '/' over 100,000 names, one keystroke at a time (≤ 5 ms a
                     keystroke); the same keys through the interface
          chain      'opscope trace' of a dependency chain (--chain-length, default
                     1,000,000) ends with exit 0; not in the default set: the
                     engine itself takes minutes on such a chain
          practice   generating and confirming a level-3 question (< 1 s); then, for
                     each level, the questions of seeds 1 to --seeds (default 100)
                     each run --runs times (default 20, five at once): every run
                     must give the question's answer; not in the default set: it
                     takes several minutes (the CI runs it)


        Build it with 'swift build -c release' first: a debug build measures the
        debug build. --quick runs fewer rounds.
        """

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(arguments, options: ["only", "chain-length", "seeds", "runs"], flags: ["quick"])
        let only = args.value("only")
        let sections = [
            "engine", "language", "interface", "table", "history", "scale", "budget", "repeat", "stall", "watch",
            "graph", "search", "chain", "practice", "why", "graphkeys",
        ]
        if let only, !sections.contains(only) {
            throw UsageError("'--only' is one of \(sections.joined(separator: ", ")), not '\(only)'")
        }
        let rounds = args.has("quick") ? 3 : 7
        let report = BenchReport()
        #if DEBUG
            report.line("note: this is a debug build; build with -c release for the real figures")
        #endif
        if only == nil || only == "language" { LanguageBench.run(report: report, rounds: rounds) }
        if only == nil || only == "engine" { EngineBench.run(report: report, rounds: rounds) }
        if only == nil || only == "interface" { InterfaceBench.run(report: report, rounds: rounds) }
        if only == nil || only == "table" { TableBench.run(report: report, rounds: rounds) }
        if only == nil || only == "history" { HistoryBench.run(report: report, rounds: rounds) }
        if only == nil || only == "scale" { ScaleBench.run(report: report, rounds: rounds) }
        if only == nil || only == "budget" { BudgetBench.run(report: report, rounds: args.has("quick") ? 1 : 2) }
        if only == nil || only == "repeat" { RepeatBench.run(report: report, rounds: args.has("quick") ? 3 : 5) }
        if only == nil || only == "stall" { StallBench.run(report: report, rounds: rounds) }
        if only == nil || only == "graph" {
            GraphBench.run(report: report, rounds: rounds)
            GraphKeysBench.run(report: report, rounds: rounds)
        }
        if only == "why" { WhyBench.run(report: report, rounds: rounds) }
        if only == "graphkeys" { GraphKeysBench.run(report: report, rounds: rounds) }
        if only == nil || only == "search" { SearchBench.run(report: report, rounds: rounds) }
        if only == nil || only == "watch" { WatchBench.run(report: report, rounds: args.has("quick") ? 5 : 15) }
        if only == "chain" {
            let text = args.value("chain-length") ?? "1000000"
            guard let length = Int(text), (2...10_000_000).contains(length) else {
                throw UsageError("'--chain-length' is a whole number from 2 to 10000000, not '\(text)'")
            }
            ScaleBench.runChain(report: report, count: length)
        }
        if only == "practice" {
            let seeds = try args.whole("seeds", in: 1...100_000, default: args.has("quick") ? 10 : 100)
            let runs = try args.whole("runs", in: 1...1000, default: 20)
            PracticeBench.run(report: report, seeds: seeds, runs: runs)
        }
        return report.allTargetsMet ? .success : .failed
    }
}

/// Prints figures as they are measured, each against its target.
/// Used from the main thread only (the benchmark is sequential).
@MainActor
final class BenchReport {
    private(set) var allTargetsMet = true

    func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func section(_ title: String) {
        line("")
        line("== " + title)
    }

    /// `label  value  (target …)  ok|MISSED`.
    func figure(_ label: String, _ value: String, target: String, met: Bool) {
        if !met { allTargetsMet = false }
        let padded = label.padding(toLength: 58, withPad: " ", startingAt: 0)
        line(
            "\(padded) \(value.padding(toLength: 12, withPad: " ", startingAt: 0)) target \(target)  \(met ? "ok" : "MISSED")"
        )
    }
}

/// Small statistics and clocks for the benchmark.
enum Measure {
    static func seconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// Peak resident set size of this process (VmHWM), in bytes.
    /// The resident set now (VmRSS), in bytes.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return (line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1024
        }
        return 0
    }

    static func peakResidentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return digits * 1024
        }
        return 0
    }

    static func ms(_ seconds: Double) -> String {
        String(format: seconds < 0.01 ? "%.3f ms" : "%.1f ms", seconds * 1000)
    }

    /// The `opscope` executable built beside this one, to run it as a process.
    static var opscopePath: String {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (me as NSString).deletingLastPathComponent + "/opscope"
    }
}

/// Parsing and `check`.
@MainActor
enum LanguageBench {
    static func run(report: BenchReport, rounds: Int) {
        report.section("language")
        let text = ScenarioGenerator.layered(layers: 100, width: 100, extra: 200)
        var times: [Double] = []
        var result: ParseResult?
        for _ in 0..<rounds {
            times.append(Measure.seconds { result = ScenarioReader.read(text, path: "layered.ops") })
        }
        let deps = result?.scenario?.operations.reduce(0) { $0 + $1.dependencies.count } ?? 0
        let ops = result?.scenario?.operations.count ?? 0
        let parse = Measure.median(times)
        report.figure(
            "parse + validate \(ops) ops, \(deps) deps (median)", Measure.ms(parse), target: "< 200 ms",
            met: parse < 0.2 && ops == 10_000)

        let small = "scenarios/01-chain.ops"
        guard FileManager.default.fileExists(atPath: small) else {
            report.line("('opscope check' timing skipped: run the bench from the project folder)")
            return
        }
        var walls: [Double] = []
        for _ in 0..<max(5, rounds) {
            walls.append(Measure.seconds { _ = try? Spawn.run(Measure.opscopePath, ["check", small]) })
        }
        let wall = Measure.median(walls)
        report.figure(
            "'opscope check' of a small file, wall (median)", Measure.ms(wall), target: "< 50 ms", met: wall < 0.05)
    }
}
