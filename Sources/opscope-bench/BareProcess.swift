import Foundation

/// `opscope-bench --bare-process flat|chain N`: the bare engine as a whole
/// process, what the trace benchmark holds `opscope trace` against. A plain
/// Foundation program: it builds the graph in code (no file, no parsing),
/// runs it on one default `OperationQueue` and exits when every operation
/// has finished, as a program written for that graph would.
///
/// `flat`: N empty `BlockOperation`s, no dependencies. `chain`: N, each
/// after the one before. The shapes are `ScenarioGenerator.flat` and
/// `ScenarioGenerator.chain`.
enum BareProcess {
    static let flag = "--bare-process"

    static func run(_ arguments: [String]) -> Never {
        guard arguments.count == 2, let count = Int(arguments[1]), count > 0,
            arguments[0] == "flat" || arguments[0] == "chain"
        else {
            FileHandle.standardError.write(Data("usage: opscope-bench \(flag) flat|chain N\n".utf8))
            exit(2)
        }
        let chained = arguments[0] == "chain"
        let queue = OperationQueue()
        var operations: [Operation] = []
        operations.reserveCapacity(count)
        for i in 0..<count {
            let operation = BlockOperation {}
            if chained && i > 0 { operation.addDependency(operations[i - 1]) }
            operations.append(operation)
        }
        for operation in operations { queue.addOperation(operation) }
        queue.waitUntilAllOperationsAreFinished()
        // Exit without releasing: a chain released from its end would free
        // one link inside the next one's deinit, a million deep.
        exit(0)
    }
}
