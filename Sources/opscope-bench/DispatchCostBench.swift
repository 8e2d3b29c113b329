import CommandSupport
import Dispatch
import Foundation

/// What one item costs on each engine, on this machine: a `BlockOperation`
/// added to an `OperationQueue` against a block given to a concurrent
/// `DispatchQueue` with a `DispatchGroup`, each with an empty body. Each
/// measurement is a fresh process of this program (`--dispatch-cost KIND
/// N`), so that neither engine runs on memory the other freed: it adds N
/// items to a held queue (a suspended `OperationQueue`, an inactive
/// `DispatchQueue`), reads how much its resident memory grew, then lets
/// them run and times them to the last one's end.
@MainActor
enum DispatchCostBench {
    nonisolated static let flag = "--dispatch-cost"
    static let items = 100_000

    /// The child's part: `KIND N`, KIND `operation` or `dispatch`; prints
    /// `BYTES_PER_ITEM SECONDS_TO_ADD SECONDS_TO_RUN`.
    nonisolated static func child(_ arguments: [String]) -> ExitStatus {
        guard arguments.count == 2, let count = Int(arguments[1]), count > 0,
            ["operation", "dispatch"].contains(arguments[0])
        else {
            FileHandle.standardError.write(Data("usage: opscope-bench \(flag) operation|dispatch N\n".utf8))
            return .usage
        }
        let before = Measure.residentBytes()
        var added = 0.0
        var ran = 0.0
        if arguments[0] == "operation" {
            let queue = OperationQueue()
            queue.isSuspended = true
            added = Measure.seconds {
                for _ in 0..<count { queue.addOperation(BlockOperation {}) }
            }
            let grown = Measure.residentBytes() - before
            ran = Measure.seconds {
                queue.isSuspended = false
                queue.waitUntilAllOperationsAreFinished()
            }
            print("\(grown / count) \(added) \(ran)")
        } else {
            let queue = DispatchQueue(label: "bench", attributes: [.concurrent, .initiallyInactive])
            let group = DispatchGroup()
            added = Measure.seconds {
                for _ in 0..<count { queue.async(group: group) {} }
            }
            let grown = Measure.residentBytes() - before
            ran = Measure.seconds {
                queue.activate()
                group.wait()
            }
            print("\(grown / count) \(added) \(ran)")
        }
        return .success
    }

    static func run(report: BenchReport, rounds: Int) {
        report.section("Operation against GCD: one item with an empty body, \(items.formatted()) at once")
        var results: [String: (bytes: [Double], micros: [Double])] = [:]
        for _ in 0..<rounds {
            for kind in ["operation", "dispatch"] {
                guard
                    let (status, output) = try? Spawn.run(
                        MeasuringHelper.selfPath, [flag, kind, String(items)], captureOutput: true),
                    status == 0
                else { continue }
                let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
                guard fields.count == 3 else { continue }
                results[kind, default: ([], [])].bytes.append(fields[0])
                results[kind, default: ([], [])].micros.append((fields[1] + fields[2]) * 1e6 / Double(items))
            }
        }
        guard let operation = results["operation"], let dispatch = results["dispatch"],
            !operation.bytes.isEmpty, !dispatch.bytes.isEmpty
        else {
            report.line("not measured: the measuring process failed")
            return
        }
        let opMicros = Measure.median(operation.micros)
        let gcdMicros = Measure.median(dispatch.micros)
        let opBytes = Measure.median(operation.bytes)
        let gcdBytes = Measure.median(dispatch.bytes)
        func micros(_ value: Double) -> String { String(format: "%.2f µs", value) }
        report.line("median of \(rounds) fresh processes each; add and run, per item, to the last one's end")
        report.value("BlockOperation on an OperationQueue: time per item", micros(opMicros))
        report.value("block on a DispatchQueue (group): time per item", micros(gcdMicros))
        report.value("  the operation / the block", String(format: "%.1f×", opMicros / max(gcdMicros, 1e-9)))
        report.value("BlockOperation, held in its queue: memory per item", "\(Int(opBytes)) B")
        report.value("block, held in its queue: memory per item", "\(Int(gcdBytes)) B")
        report.value("  the operation / the block", String(format: "%.1f×", opBytes / max(gcdBytes, 1)))
    }
}
