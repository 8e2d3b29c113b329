/// `at TIME start OP` in the exported program: the main thread calls the
/// operation's `start()` by hand, after looking first, as opscope does, at
/// what Foundation would stop the program for.
extension SwiftProgramPrinter {
    static let startByHand = #"""
        // MARK: - start() by hand

        /// Calls `operation.start()` on this thread (the main thread here) and
        /// says when the call begins and returns. The operation is in no queue:
        /// a synchronous one runs its main() right here, before start() returns,
        /// and this thread runs nothing else meanwhile (no main-queue operation,
        /// no drawing); an asynchronous one begins its work and returns at once.
        /// On a finished operation start() does nothing; on a cancelled one it
        /// finishes it without running main().
        ///
        /// Foundation's start() stops the program when the operation is not
        /// ready (receiver is not yet ready to execute), is executing (receiver
        /// is already executing) or is in a queue; an asynchronous operation's
        /// own start() has none of those checks and would begin before its
        /// dependencies finished, or a second time. So it looks first, and then
        /// does not call it.
        func startByHand(_ operation: Operation) {
            let name = operation.name ?? "?"
            let call = "main thread: \(name).start()"
            if operation.isExecuting {
                let why =
                    operation.isAsynchronous
                    ? "its own start() would begin its work a second time"
                    : "Foundation would stop the program: receiver is already executing"
                say("\(call) not called: \(name) is executing; \(why)")
                return
            }
            if !operation.isReady {
                let waits = operation.dependencies.filter { !$0.isFinished }.map { $0.name ?? "?" }
                let why =
                    operation.isAsynchronous
                    ? "its own start() does not look at isReady, and would begin before they finished"
                    : "Foundation would stop the program: receiver is not yet ready to execute"
                say("\(call) not called: \(name) is not ready (it waits for \(waits.joined(separator: ", "))); \(why)")
                return
            }
            say("\(call) begins")
            operation.start()
            say("\(call) returned" + (operation.isFinished ? "" : " (it executes on: it is asynchronous)"))
        }
        """#
}

extension ProgramWriter {
    /// The code of `at TIME start OP`: posted to the main queue, which the
    /// main thread serves (`waitForTheEnd`); it makes the call when it is
    /// free.
    func startCode(_ index: Int, indent: String) -> [String] {
        [
            "\(indent)DispatchQueue.main.async {",
            "\(indent)    startByHand(\(operationNames[index]))  // the main thread calls start() itself",
            "\(indent)}",
        ]
    }

    /// The names of the operations the program starts by hand, as
    /// `waitForTheEnd` takes them (its report says why one never started).
    var startedByHandArgument: String? {
        let names = scenario.startedByHand.sorted().map { SwiftIdentifiers.stringLiteral(scenario[operation: $0].name) }
        return names.isEmpty ? nil : "startedByHand: [\(names.joined(separator: ", "))]"
    }
}
