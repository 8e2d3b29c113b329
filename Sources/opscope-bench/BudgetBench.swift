import Foundation

/// The largest files within a budget: the peak memory of `opscope trace
/// --format jsonl FILE > /dev/null` for three shapes of a million
/// operations and a file of 2,550,000, each beside the bare engine's
/// process on the same graph (`BareProcess`): Foundation's own floor.
///
/// Whole processes, measured from outside (`MeasuringHelper`, `wait4`),
/// each shape's trace and bare process alternated, the worst of the rounds
/// kept (a budget is about the worst). Bytes per operation are the whole
/// process's peak over the operations.
@MainActor
enum BudgetBench {
    struct Shape {
        var label: String
        var file: String
        var count: Int
        var bare: [String]
        /// The budget: bytes per operation, or a whole number of bytes (none
        /// for a shape held to its floor instead).
        var perOperation: Int? = nil
        var total: Int? = nil
        /// Its floor (`FloorProcess`): the peak is held within 1.25× of it.
        var floor: [String]? = nil
        /// The trace's median time is held within this many times the bare
        /// engine's (ratio of medians).
        var timeRatio: Double? = nil
        var text: () -> String
    }

    static let million = 1_000_000
    static let large = 2_550_000

    static let shapes = [
        Shape(
            label: "1,000,000 ops, flat", file: "flat-1M.ops", count: million, bare: ["flat", "\(million)"],
            perOperation: 500, timeRatio: 1.25, text: { ScenarioGenerator.flat(count: million) }),
        Shape(
            label: "1,000,000 ops, fan-out", file: "fan-1M.ops", count: million, bare: ["fan", "\(million)"],
            perOperation: 500, text: { ScenarioGenerator.fanOut(count: million) }),
        Shape(
            label: "1,000,000 ops, chain (serial)", file: "chain-1M.ops", count: million,
            bare: ["chain", "\(million)"], floor: ["chain", "\(million)"],
            text: { ScenarioGenerator.chain(count: million, serial: true) }),
        Shape(
            label: "2,550,000 ops, flat (52 MB file)", file: "flat-2.55M.ops", count: large,
            bare: ["flat", "\(large)"], total: 1_500_000_000, text: { ScenarioGenerator.flat(count: large) }),
    ]

    static func run(report: BenchReport, rounds: Int) {
        report.section(
            "budget (peak memory of 'opscope trace --format jsonl FILE > /dev/null' and of the bare engine on the "
                + "same graph, whole processes, worst of \(rounds))")
        guard let folder = try? ScaleBench.scratchFolder() else {
            report.line("(cannot make a scratch folder: budget skipped)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for shape in shapes {
            let path = ScaleBench.write(shape.text(), shape.file, in: folder)
            var traces: [ScaleBench.Figures] = []
            var bares: [ScaleBench.Figures] = []
            var floors: [ScaleBench.Figures] = []
            for _ in 0..<rounds {
                traces.append(ScaleBench.once(Measure.opscopePath, ["trace", "--format", "jsonl", path]))
                bares.append(ScaleBench.once(MeasuringHelper.selfPath, [BareProcess.flag] + shape.bare))
                if let floor = shape.floor {
                    floors.append(ScaleBench.once(MeasuringHelper.selfPath, [FloorProcess.flag] + floor))
                }
            }
            try? FileManager.default.removeItem(atPath: path)
            let trace = traces.map(\.memory).max() ?? 0
            let bare = bares.map(\.memory).max() ?? 0
            let ok = traces.allSatisfy { $0.status == 0 }
            let perOperation = trace / shape.count
            // A chain's peak is held to Foundation's own floor (below):
            // the floor alone is more than 500 bytes an operation.
            if let budget = shape.perOperation {
                report.figure(
                    "trace jsonl, \(shape.label): peak", "\(perOperation) B/op", target: "≤ \(budget) B/op",
                    met: ok && perOperation <= budget)
            } else if let budget = shape.total {
                report.figure(
                    "trace jsonl, \(shape.label): peak", ScaleBench.megabytes(trace),
                    target: "< \(Double(budget) / 1e9) GB", met: ok && trace < budget)
            }
            let ratio = Double(trace) / Double(max(1, bare))
            report.line(
                "    trace \(ScaleBench.megabytes(trace)) (\(perOperation) B/op), bare engine "
                    + "\(ScaleBench.megabytes(bare)) (\(bare / shape.count) B/op): trace / bare "
                    + String(format: "%.2f×", ratio) + "; trace \(seconds(traces)), bare \(seconds(bares)) (median)"
                    + (ok ? "" : "; a trace failed"))
            if let limit = shape.timeRatio {
                let times = Measure.median(traces.map(\.seconds)) / max(Measure.median(bares.map(\.seconds)), 1e-9)
                report.figure(
                    "trace jsonl, \(shape.label): time / bare", String(format: "%.2f×", times),
                    target: "≤ \(limit)×", met: ok && times <= limit)
            }
            if shape.floor != nil {
                let floor = floors.map(\.memory).max() ?? 0
                let ratio = Double(trace) / Double(max(1, floor))
                report.figure(
                    "trace jsonl, \(shape.label): peak / floor", String(format: "%.2f×", ratio), target: "≤ 1.25×",
                    met: ok && ratio <= 1.25)
                report.line(
                    "    floor (\(FloorProcess.flag) \(shape.floor?.joined(separator: " ") ?? ""): the operations "
                        + "made and wired, never added) \(ScaleBench.megabytes(floor))")
            }
        }
    }

    private static func seconds(_ runs: [ScaleBench.Figures]) -> String {
        String(format: "%.1f s", Measure.median(runs.map(\.seconds)))
    }
}
