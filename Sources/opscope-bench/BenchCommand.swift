import Board
import CommandSupport
import Foundation
import LifecycleEngine
import ScenarioKit

/// `opscope-bench`: the project's speed and memory figures, measured on this
/// machine against Foundation's bare engine. Meant for a release build:
/// `swift build -c release && .build/release/opscope-bench`.
///
/// Its sections are one table (`sections`): `--only` takes their names, the
/// help lists their summaries, and a run without `--only` runs those in the
/// default set, in the table's order.
@MainActor
enum BenchCommand {
    /// One part of the benchmark.
    struct Section {
        let name: String
        /// What it measures, for the help (one paragraph).
        let summary: String
        /// Run when `--only` is not given.
        let inDefaultSet: Bool
        let run: @MainActor (BenchReport, Settings) throws(UsageError) -> Void
    }

    /// The command line, read.
    struct Settings {
        let args: Arguments
        /// Rounds of most measurements (fewer with --quick).
        var rounds: Int { quick ? 3 : 7 }
        var quick: Bool { args.has("quick") }
    }

    static let sections: [Section] = [
        Section(
            name: "language",
            summary: "parsing and validating a layered scenario of 10,000 operations; 'opscope check' of a small "
                + "file, as a process",
            inDefaultSet: true, run: { report, settings in LanguageBench.run(report: report, rounds: settings.rounds) }),
        Section(
            name: "engine",
            summary: "100,000 zero-work operations observed by opscope (operations, observation, event stream, "
                + "board reducer) against the same plain BlockOperations on a bare OperationQueue, alternated; a "
                + "layered graph of 10,000 operations and 20,000 dependencies, the same way; peak resident memory",
            inDefaultSet: true, run: { report, settings in EngineBench.run(report: report, rounds: settings.rounds) }),
        Section(
            name: "interface",
            summary: "building and flushing one frame of 1,000 operations at 200×50, of the board and of the "
                + "timeline (t); bytes written for a one-card change and for a full redraw (TERM=tmux-256color); "
                + "time to the first frame; CPU while paused (needs tmux); a library question from the picker to "
                + "its first frame (predict mode)",
            inDefaultSet: true, run: { report, settings in InterfaceBench.run(report: report, rounds: settings.rounds) }
        ),
        Section(
            name: "table",
            summary: "the table view (t) of 10,000 operations: a frame at 200×50 sorted by waited, the order kept "
                + "between frames; a re-sort",
            inDefaultSet: true, run: { report, settings in TableBench.run(report: report, rounds: settings.rounds) }),
        Section(
            name: "history",
            summary: "a run of 100,000 zero-work operations recorded as the interface records it; seeks to random "
                + "moments (median and worst); the resident memory the history adds beyond a run",
            inDefaultSet: true, run: { report, settings in HistoryBench.run(report: report, rounds: settings.rounds) }),
        Section(
            name: "scale",
            summary: "'opscope trace --format jsonl' of 100,000 and 200,000 zero-work operations against a "
                + "plain-Foundation process running the same graph, alternated, time and peak memory of the whole "
                + "processes; 'opscope check' of 100,000 misspelt names",
            inDefaultSet: true, run: { report, settings in ScaleBench.run(report: report, rounds: settings.rounds) }),
        Section(
            name: "budget",
            summary: "the peak memory of 'opscope trace --format jsonl' of 1,000,000 operations (flat and a "
                + "fan-out: ≤ 500 bytes an operation; a serial chain: ≤ 1.25× Foundation's floor, --floor-process: "
                + "the same operations made and wired, never added) and of 2,550,000 (< 1.5 GB), each beside the "
                + "bare engine's process on the same graph; the flat million's time against the bare engine's "
                + "(≤ 1.25×); a few minutes",
            inDefaultSet: true,
            run: { report, settings in BudgetBench.run(report: report, rounds: settings.quick ? 1 : 2) }),
        Section(
            name: "repeat",
            summary: "'opscope trace --repeat 20' of a library file against 20 single 'opscope trace' processes "
                + "of it, alternated (≤ 1.05×)",
            inDefaultSet: true,
            run: { report, settings in RepeatBench.run(report: report, rounds: settings.quick ? 3 : 5) }),
        Section(
            name: "stall",
            summary: "grouping a stall of 100,000 stuck operations by root cause and telling it in words (a "
                + "deadlock through a suspension, a chain behind an operation that never posts isFinished), and "
                + "the same at 50,000: < 100 ms, and linear",
            inDefaultSet: true, run: { report, settings in StallBench.run(report: report, rounds: settings.rounds) }),
        Section(
            name: "graph",
            summary: "the dependency graph's layout of 10,000 operations and 20,000 dependencies (≤ 300 ms) and "
                + "of 1,000 (≤ 30 ms); then graphkeys",
            inDefaultSet: true,
            run: { report, settings in
                GraphBench.run(report: report, rounds: settings.rounds)
                GraphKeysBench.run(report: report, rounds: settings.rounds)
            }),
        Section(
            name: "graphkeys",
            summary: "every key of the graph view on a run of 100,000 operations, the first G and the first H "
                + "included, key and frame (≤ 100 ms each)",
            inDefaultSet: false,
            run: { report, settings in GraphKeysBench.run(report: report, rounds: settings.rounds) }
        ),
        Section(
            name: "why",
            summary: "'opscope why' of the last operation of a 100,000-operation chain against 'opscope trace "
                + "--format jsonl' of it, whole processes, alternated (≤ 2×)",
            inDefaultSet: false, run: { report, settings in WhyBench.run(report: report, rounds: settings.rounds) }),
        Section(
            name: "search",
            summary: "'/' over 100,000 names, one keystroke at a time (≤ 5 ms a keystroke); the same keys through "
                + "the interface",
            inDefaultSet: true, run: { report, settings in SearchBench.run(report: report, rounds: settings.rounds) }),
        Section(
            name: "watch",
            summary: "from a save of a library file to the new run's first frame (--watch), in this process: the "
                + "kernel's event, the quiet period, the file read and checked, the run started on the real "
                + "engine, the frame flushed to a headless terminal",
            inDefaultSet: true,
            run: { report, settings in WatchBench.run(report: report, rounds: settings.quick ? 5 : 15) }),
        Section(
            name: "chain",
            summary: "'opscope trace' of a dependency chain (--chain-length, default 1,000,000) ends with exit 0; "
                + "the engine itself takes minutes on such a chain",
            inDefaultSet: false,
            run: { report, settings throws(UsageError) in
                let text = settings.args.value("chain-length") ?? "1000000"
                guard let length = Int(text), (2...10_000_000).contains(length) else {
                    throw UsageError("'--chain-length' is a whole number from 2 to 10000000, not '\(text)'")
                }
                ScaleBench.runChain(report: report, count: length)
            }),
        Section(
            name: "gcd",
            summary: "one BlockOperation on an OperationQueue against one block on a concurrent DispatchQueue with a "
                + "group, each with an empty body, 100,000 at once: time per item (added and run) and the memory "
                + "each takes while held, each engine in fresh processes",
            inDefaultSet: true,
            run: { report, settings in DispatchCostBench.run(report: report, rounds: settings.quick ? 3 : 7) }),
        Section(
            name: "kata",
            summary: "'opscope kata async-operation' of a right answer, whole process: the first check, its two "
                + "programs compiled, and the same file again, cached",
            inDefaultSet: true,
            run: { report, settings in KataBench.run(report: report, rounds: settings.quick ? 1 : 3) }),
        Section(
            name: "own",
            summary: "'opscope trace' of a scenario with your classes, whole process: the first, its library "
                + "compiled, and the same files again, kept",
            inDefaultSet: true,
            run: { report, settings in OwnClassBench.run(report: report, rounds: settings.quick ? 1 : 3) }),
        Section(
            name: "practice",
            summary: "generating and confirming a level-3 question (< 1 s); then, for each level, the questions "
                + "of seeds 1 to --seeds each run --runs times (five at once): every run must give the question's "
                + "answer; several minutes (the CI runs it)",
            inDefaultSet: false,
            run: { report, settings throws(UsageError) in
                let seeds = try settings.args.whole("seeds", in: 1...100_000, default: settings.quick ? 10 : 100)
                let runs = try settings.args.whole("runs", in: 1...1000, default: 20)
                PracticeBench.run(report: report, seeds: seeds, runs: runs)
            }),
    ]

    static var spec: CommandSpec {
        let sectionColumn = 13
        let measured = sections.map { section in
            CommandSpec.entry(
                "  " + section.name, section.summary + (section.inDefaultSet ? "" : "; not in the default set"),
                column: sectionColumn)
        }
        return CommandSpec(
            program: "opscope-bench", name: "bench",
            abstract: "Measure opscope against the bare engine (use a release build)",
            usage: [
                [
                    .optional("quick"), .optional("only"), .optional("chain-length"), .optional("seeds"),
                    .optional("runs"),
                ]
            ],
            about: "Measures, on this machine (each SECTION in turn, or only one):\n"
                + measured.joined(separator: "\n"),
            options: [
                .flag("quick", "fewer rounds"),
                .value("only", "SECTION", "only this section: " + sections.map(\.name).joined(separator: ", ")),
                .value("chain-length", "N", "with --only chain: the chain's length (default: 1000000)"),
                .value("seeds", "N", "with --only practice: the seeds of each level (default: 100; 10 with --quick)"),
                .value("runs", "N", "with --only practice: the runs of each question (default: 20)"),
            ],
            epilogue: """
                Build it with 'swift build -c release' first: a debug build measures the
                debug build. EXIT STATUS: 0 when every target was met, 1 when one was
                missed, 2 when the command line is wrong.
                """)
    }

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        let only = args.value("only")
        if let only, !sections.contains(where: { $0.name == only }) {
            throw UsageError("'--only' is one of \(sections.map(\.name).joined(separator: ", ")), not '\(only)'")
        }
        let report = BenchReport()
        #if DEBUG
            report.line("note: this is a debug build; build with -c release for the real figures")
        #endif
        let settings = Settings(args: args)
        for section in sections where only.map({ $0 == section.name }) ?? section.inDefaultSet {
            try section.run(report, settings)
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

    /// `label  value`: a figure with no target, for the reader.
    func value(_ label: String, _ value: String) {
        line("\(label.padding(toLength: 58, withPad: " ", startingAt: 0)) \(value)")
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
