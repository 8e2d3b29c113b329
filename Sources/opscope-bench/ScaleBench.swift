import CommandSupport
import Foundation

/// Whole processes at scale: `opscope trace --format jsonl` against the
/// bare engine's process on the same graph (`BareProcess`), alternated,
/// time and peak memory measured from outside (`wait4`); the longest
/// chain's end; `check` of a file full of misspelt names. The million-
/// operation files are `BudgetBench`'s.
@MainActor
enum ScaleBench {
    static func run(report: BenchReport, rounds: Int) {
        report.section("scale (whole processes: opscope trace --format jsonl > /dev/null against the bare engine's)")
        guard let folder = try? scratchFolder() else {
            report.line("(cannot make a scratch folder: scale skipped)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let flat100k = write(ScenarioGenerator.flat(count: 100_000), "flat-100k.ops", in: folder)
        let (timeRatio, trace, bare) = compare(flat100k, bare: ["flat", "100000"], rounds: rounds)
        report.figure(
            "trace jsonl, 100,000 zero-work ops: trace / bare (median)", String(format: "%.2f×", timeRatio),
            target: "≤ 1.25×", met: timeRatio <= 1.25)
        report.line(
            "    trace \(Measure.ms(trace.seconds)), bare \(Measure.ms(bare.seconds)) (medians, whole processes); "
                + "trace \(megabytes(trace.memory)), bare \(megabytes(bare.memory))")

        var formatRatios: [Double] = []
        var chromeTimes: [Double] = []
        for _ in 0..<rounds {
            let chrome = once(Measure.opscopePath, ["trace", "--format", "chrome", flat100k])
            let jsonl = once(Measure.opscopePath, ["trace", "--format", "jsonl", flat100k])
            chromeTimes.append(chrome.seconds)
            formatRatios.append(chrome.seconds / max(jsonl.seconds, 1e-9))
        }
        let formatRatio = Measure.median(formatRatios)
        report.figure(
            "trace chrome / trace jsonl, the same 100,000 ops (median)", String(format: "%.2f×", formatRatio),
            target: "≤ 1.5×", met: formatRatio <= 1.5)
        report.line("    chrome \(Measure.ms(Measure.median(chromeTimes))) (median, whole process)")

        let flat200k = write(ScenarioGenerator.flat(count: 200_000), "flat-200k.ops", in: folder)
        let (_, trace200, bare200) = compare(flat200k, bare: ["flat", "200000"], rounds: max(1, rounds / 2))
        let memoryRatio = Double(trace200.memory) / Double(max(1, bare200.memory))
        report.figure(
            "trace jsonl, 200,000 ops: peak memory trace / bare", String(format: "%.2f×", memoryRatio),
            target: "≤ 2×", met: memoryRatio <= 2)
        report.line("    trace \(megabytes(trace200.memory)), bare \(megabytes(bare200.memory)) (medians)")

        let misspelt = write(ScenarioGenerator.misspelt(count: 100_000), "misspelt-100k.ops", in: folder)
        let check = once(Measure.opscopePath, ["check", misspelt])
        report.figure(
            "check of 100,000 misspelt names (exit 2)", Measure.ms(check.seconds), target: "≤ 1 s",
            met: check.status == 2 && check.seconds <= 1)
    }

    /// The chain: its own section, since the engine itself is quadratic in
    /// a long chain on one queue (a minute or more at a million).
    static func runChain(report: BenchReport, count: Int) {
        report.section("chain (a dependency chain on one queue, released without recursion)")
        guard let folder = try? scratchFolder() else { return }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = write(ScenarioGenerator.chain(count: count), "chain.ops", in: folder)
        let trace = once(Measure.opscopePath, ["trace", "--format", "jsonl", file])
        report.figure(
            "trace jsonl, a chain of \(count.formatted()) ops: exit status", "\(trace.status)", target: "0",
            met: trace.status == 0)
        report.line("    \(Measure.ms(trace.seconds)), \(megabytes(trace.memory))")
    }

    // MARK: - Processes

    struct Figures {
        var seconds: Double
        var memory: Int
        var status: Int32
    }

    /// One whole process, through `MeasuringHelper` (so that its peak
    /// memory is its own, not the benchmark's).
    static func once(_ path: String, _ arguments: [String]) -> Figures {
        guard let measured = MeasuringHelper.measure(path, arguments) else {
            return Figures(seconds: 0, memory: 0, status: -1)
        }
        return Figures(seconds: measured.seconds, memory: measured.peak, status: measured.status)
    }

    /// Alternates the trace and the bare process; the median ratio of
    /// times, and each one's median time and memory.
    static func compare(_ file: String, bare: [String], rounds: Int) -> (Double, Figures, Figures) {
        let me = MeasuringHelper.selfPath
        var traces: [Figures] = []
        var bares: [Figures] = []
        var ratios: [Double] = []
        for _ in 0..<rounds {
            let t = once(Measure.opscopePath, ["trace", "--format", "jsonl", file])
            let b = once(me, [BareProcess.flag] + bare)
            traces.append(t)
            bares.append(b)
            ratios.append(t.seconds / max(b.seconds, 1e-9))
        }
        func median(_ figures: [Figures]) -> Figures {
            Figures(
                seconds: Measure.median(figures.map(\.seconds)),
                memory: Int(Measure.median(figures.map { Double($0.memory) })),
                status: figures.map(\.status).max() ?? 0)
        }
        return (Measure.median(ratios), median(traces), median(bares))
    }

    // MARK: - Files

    static func scratchFolder() throws -> String {
        let path = NSTemporaryDirectory() + "opscope-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ text: String, _ name: String, in folder: String) -> String {
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    static func megabytes(_ bytes: Int) -> String { "\(bytes / 1_048_576) MB" }
}
