import Dispatch
import Foundation
import Practice

/// Generated questions: how long one takes to make and confirm, and
/// whether every run of each gives its answer.
@MainActor
enum PracticeBench {
    /// Runs of one question at once in the consistency check (20 in 4
    /// batches of 5).
    static let batch = 5

    static func run(report: BenchReport, seeds: Int, runs: Int) {
        report.section("practice (questions generated with a fixed answer, confirmed on the real engine)")
        var times: [Double] = []
        for seed in 1...20 {
            times.append(Measure.seconds { _ = try? QuestionGenerator.generate(level: 3, seed: UInt64(seed)) })
        }
        let median = Measure.median(times)
        let worst = times.max() ?? 0
        report.figure(
            "level 3: generate + confirm, median of seeds 1–20", Measure.ms(median),
            target: "< 1 s", met: median < 1)
        report.figure(
            "level 3: generate + confirm, the slowest of those", Measure.ms(worst), target: "< 1 s", met: worst < 1)

        for level in QuestionGenerator.levels {
            var consistent = 0
            var kinds: [String: Int] = [:]
            var attempts = 0
            var unconfirmed = 0
            var timed = 0
            var onMain = 0
            var problems: [String] = []
            let elapsed = Measure.seconds {
                for seed in 1...seeds {
                    let question: GeneratedQuestion
                    do throws(GenerationError) {
                        question = try QuestionGenerator.generate(level: level, seed: UInt64(seed)) {
                            question throws(GenerationError) in
                            let failure = try QuestionConfirmer.firstFailure(question)
                            if failure != nil { unconfirmed += 1 }
                            return failure
                        }
                    } catch {
                        problems.append("seed \(seed): \(error.message)")
                        continue
                    }
                    kinds[question.kind.rawValue, default: 0] += 1
                    if question.hasLaterAction { timed += 1 }
                    if question.needsMainThread { onMain += 1 }
                    attempts += question.attempt
                    var failures: [String] = []
                    for start in stride(from: 0, to: runs, by: batch) {
                        let confirmation = QuestionConfirmer.confirm(question, runs: min(batch, runs - start))
                        failures += confirmation.failures + (confirmation.unavailable.map { ["not run: \($0)"] } ?? [])
                    }
                    if failures.isEmpty {
                        consistent += 1
                    } else {
                        problems.append("seed \(seed): \(failures.count) of \(runs) runs differ; \(failures[0])")
                    }
                }
            }
            report.figure(
                "level \(level): seeds 1–\(seeds) × \(runs) runs, every run as predicted",
                "\(consistent) of \(seeds)", target: "all", met: consistent == seeds)
            let kindList = kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            report.line(
                "    \(kindList); \(timed) with an action after 0ms, \(onMain) on the main thread; candidates passed "
                    + "over: \(attempts - unconfirmed) passable blind, \(unconfirmed) not confirmed; "
                    + String(format: "%.0f s", elapsed))
            for problem in problems.prefix(10) { report.line("    " + problem) }
        }
    }
}
