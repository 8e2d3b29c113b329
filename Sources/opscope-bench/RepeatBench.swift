import CommandSupport
import Foundation

/// `opscope trace --repeat 20` of a library file against 20 single
/// `opscope trace` processes of the same file, alternated, each whole
/// process timed from outside: what proving a file over many runs costs
/// against the shell loop it replaces (issue 19's target: no more than 20
/// single traces plus 5 %).
@MainActor
enum RepeatBench {
    /// A hundred asynchronous downloads, four at a time: 3.8 scenario
    /// seconds, 100 operations and their start order in every run.
    static let file = "scenarios/17-hundred-downloads-async.ops"
    static let speed = "16"
    static let runs = 20

    static func run(report: BenchReport, rounds: Int) {
        report.section(
            "repeat (trace --repeat \(runs) of a library file against \(runs) single traces, whole processes)")
        guard FileManager.default.fileExists(atPath: file) else {
            report.line("(repeat skipped: run the bench from the project folder)")
            return
        }
        var ratios: [Double] = []
        var repeats: [Double] = []
        var singles: [Double] = []
        var statuses: Set<Int32> = []
        for _ in 0..<rounds {
            let repeated = measure(["trace", "--speed", speed, "--repeat", "\(runs)", file])
            var single = 0.0
            for _ in 0..<runs {
                let one = measure(["trace", "--speed", speed, file])
                single += one.seconds
                statuses.insert(one.status)
            }
            statuses.insert(repeated.status)
            repeats.append(repeated.seconds)
            singles.append(single)
            ratios.append(repeated.seconds / max(single, 1e-9))
        }
        let ratio = Measure.median(ratios)
        report.figure(
            "trace --repeat \(runs) / \(runs) single traces (median)", String(format: "%.2f×", ratio),
            target: "≤ 1.05×", met: ratio <= 1.05 && statuses == [0])
        let memory = ScaleBench.once(Measure.opscopePath, ["trace", "--speed", speed, "--repeat", "\(runs)", file])
        let oneMemory = ScaleBench.once(Measure.opscopePath, ["trace", "--speed", speed, file])
        report.line(
            "    \(file) at --speed \(speed): --repeat \(runs) \(Measure.ms(Measure.median(repeats))), \(runs) single "
                + "traces \(Measure.ms(Measure.median(singles))) (medians of \(rounds)); peak memory "
                + "\(ScaleBench.megabytes(memory.memory)) for the \(runs) runs, \(ScaleBench.megabytes(oneMemory.memory)) "
                + "for one")
    }

    private static func measure(_ arguments: [String]) -> (seconds: Double, status: Int32) {
        guard let measured = try? Spawn.measure(Measure.opscopePath, arguments) else { return (0, -1) }
        return (measured.seconds, measured.status)
    }
}
