extension Kata {
    /// The program of `async-operation`'s race check, compiled with the
    /// thread sanitizer: 200 operations of up to 8 ms on a queue of cap 8,
    /// while three threads read every one's flags in a loop and one of them
    /// cancels some that execute. It waits until all finished, or until
    /// none finished for 2 s, and says how many did; a race makes the
    /// sanitizer end it with a report on standard error.
    static let asyncOperationRaceHarness = RaceHarness(program: asyncOperationRaceProgram, operations: 200)

    static let asyncOperationRaceProgram = #"""
        import Foundation

        let kataOperations = (0..<200).map { AsyncDownload(seconds: Double($0 % 5) * 0.002) }
        let kataQueue = OperationQueue()
        kataQueue.maxConcurrentOperationCount = 8
        let kataStopLock = NSLock()
        var kataStopped = false
        func kataShouldStop() -> Bool {
            kataStopLock.lock()
            defer { kataStopLock.unlock() }
            return kataStopped
        }
        for reader in 0..<3 {
            Thread {
                var seen = 0
                while !kataShouldStop() {
                    for operation in kataOperations
                    where operation.isExecuting || operation.isFinished || operation.isCancelled {
                        seen += 1
                    }
                    if reader == 0 {
                        for operation in kataOperations.filter({ $0.isExecuting }).prefix(2) { operation.cancel() }
                    }
                }
                _ = seen
            }.start()
        }
        kataQueue.addOperations(kataOperations, waitUntilFinished: false)
        var kataFinished = 0
        var kataProgressAt = DispatchTime.now().uptimeNanoseconds
        while kataFinished < kataOperations.count
            && DispatchTime.now().uptimeNanoseconds - kataProgressAt < 2_000_000_000
        {
            usleep(2000)
            let now = kataOperations.filter(\.isFinished).count
            if now > kataFinished { (kataFinished, kataProgressAt) = (now, DispatchTime.now().uptimeNanoseconds) }
        }
        kataStopLock.lock()
        kataStopped = true
        kataStopLock.unlock()
        usleep(100_000)
        print("opscope-kata-race finished \(kataFinished)")

        """#

    /// Its check, graded from the sanitizer's report (`RaceReport`).
    static let asyncOperationRaceCheck = KataCheck(
        id: raceCheck, title: "its flags are safe to read from any thread (thread sanitizer)",
        outcomes: [
            "pass": .pass("no data race while three threads read the flags of {count} operations as they ran"),
            "race": .fail(
                "a data race: {detail}",
                rule: """
                    Foundation reads isExecuting, isFinished and isCancelled from its own threads \
                    while the work changes them on others: keep the state behind a lock (or a \
                    serial queue, or an atomic), read and written only under it.
                    """),
            "raceElsewhere": .fail(
                "the thread sanitizer reported a data race outside your file, at {detail}",
                rule: """
                    A race the sanitizer finds while your class runs is one to look at: if its \
                    stacks do not reach your code, say so to opscope's developers.
                    """),
            "unfinished": .fail(
                "{count} of the 200 finished, then none for 2s: their flags could not be read through whole runs",
                rule: """
                    Each one ends in a finish Foundation is told of: isFinished true, between \
                    willChangeValue(forKey: "isFinished") and didChangeValue(forKey: "isFinished").
                    """),
        ])
}
