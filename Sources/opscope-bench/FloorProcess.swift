import CommandSupport
import Foundation

/// `opscope-bench --floor-process flat|chain N`: Foundation's memory floor
/// for N operations, as a whole process. A plain Foundation program that
/// makes N empty `BlockOperation`s (for `chain`, each after the one
/// before, the shape of `ScenarioGenerator.chain`), holds them all, and
/// exits without adding or running any: what any program holding that
/// graph at once pays, before a queue holds anything. The benchmark holds
/// the peak of `opscope trace` of the same graph against it
/// (`BudgetBench`), as it holds its time against `BareProcess`.
enum FloorProcess {
    static let flag = "--floor-process"
    static let shapes = ["flat", "chain"]

    /// Returns only for a wrong command line; a run exits by itself.
    static func run(_ arguments: [String]) -> ExitStatus {
        guard arguments.count == 2, let count = Int(arguments[1]), count > 0, shapes.contains(arguments[0]) else {
            FileHandle.standardError.write(Data("usage: opscope-bench \(flag) flat|chain N\n".utf8))
            return .usage
        }
        let chained = arguments[0] == "chain"
        var operations: [Operation] = []
        operations.reserveCapacity(count)
        for i in 0..<count {
            let operation = BlockOperation {}
            if i > 0 && chained { operation.addDependency(operations[i - 1]) }
            operations.append(operation)
        }
        // Exit holding them (as `BareProcess`): a chain released from its
        // end would free one link inside the next one's deinit, a million
        // deep.
        withExtendedLifetime(operations) { exit(0) }
    }
}
