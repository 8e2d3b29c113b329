import CommandSupport
import Foundation

/// `opscope-bench --bare-process flat|chain|fan N`: the bare engine as a
/// whole process, what the trace benchmark holds `opscope trace` against.
/// A plain Foundation program: it builds the graph in code (no file, no
/// parsing), runs it on one `OperationQueue` and exits when every
/// operation has finished, as a program written for that graph would.
///
/// `flat`: N empty `BlockOperation`s, no dependencies. `chain`: N, each
/// after the one before, on a serial queue. `fan`: one, then N − 1 after
/// it. The shapes are `ScenarioGenerator.flat`, `.chain(serial: true)` and
/// `.fanOut`. Every operation is made and wired before the first is
/// added, and held to the end: the floor of what Foundation itself holds.
///
/// The fan's root is added and waited for before the rest: otherwise its
/// finish releases its dependents one by one and Foundation's queue walks
/// all those already added and still waiting at each (`_schedule`), which
/// took from 40 s to many minutes, depending on how many were in when the
/// root finished. Its memory is the same either way.
enum BareProcess {
    static let flag = "--bare-process"
    static let shapes = ["flat", "chain", "fan"]

    /// Returns only for a wrong command line; a run exits by itself.
    static func run(_ arguments: [String]) -> ExitStatus {
        guard arguments.count == 2, let count = Int(arguments[1]), count > 0, shapes.contains(arguments[0]) else {
            FileHandle.standardError.write(Data("usage: opscope-bench \(flag) flat|chain|fan N\n".utf8))
            return .usage
        }
        let shape = arguments[0]
        let queue = OperationQueue()
        if shape == "chain" { queue.maxConcurrentOperationCount = 1 }
        var operations: [Operation] = []
        operations.reserveCapacity(count)
        for i in 0..<count {
            let operation = BlockOperation {}
            if i > 0 && shape == "chain" { operation.addDependency(operations[i - 1]) }
            if i > 0 && shape == "fan" { operation.addDependency(operations[0]) }
            operations.append(operation)
        }
        if shape == "fan" {
            queue.addOperation(operations[0])
            operations[0].waitUntilFinished()
        }
        for operation in operations[(shape == "fan" ? 1 : 0)...] { queue.addOperation(operation) }
        queue.waitUntilAllOperationsAreFinished()
        // Exit here, without releasing (not by returning a status to
        // `main`): a chain released from its end would free one link
        // inside the next one's deinit, a million deep.
        exit(0)
    }
}
