extension Kata {
    /// The program that runs `result-passing`'s checks (its `main.swift`),
    /// compiled with the user's file: synchronous operations, each pair on
    /// fresh queues, waited for up to seconds.
    static let resultPassingHarness = #"""
        import Foundation

        // The checks of opscope's kata "result-passing", run on this Foundation's
        // own OperationQueue against the file's `Producer` and `Doubler`. Each
        // check prints one line, "opscope-kata " and a JSON object.

        /// Waits up to `limit` seconds for `operations` to finish; whether they did.
        func kataFinished(_ operations: [Operation], within limit: Double) -> Bool {
            kataWait(limit) { operations.allSatisfy(\.isFinished) }
        }

        /// What a doubler gave: its result, or the outcome words when it is wrong.
        func kataGrade(_ check: String, _ doubler: Doubler, _ producer: Producer, expect: Int?) {
            guard kataFinished([producer, doubler], within: 5) else {
                kataReport(check, "neverFinished")
                return
            }
            switch (doubler.result, expect) {
            case (nil, nil): kataReport(check, "pass")
            case (let got?, let want?) where got == want: kataReport(check, "pass", count: got)
            case (nil, _?): kataReport(check, "noResult")
            case (let got?, nil): kataReport(check, "resultWithoutInput", count: got)
            case (let got?, _?): kataReport(check, "wrongResult", count: got)
            }
        }

        // 1. One queue: the doubler after the producer gets twice its value.
        do {
            let producer = Producer(value: 21)
            let doubler = Doubler()
            doubler.addDependency(producer)
            OperationQueue().addOperations([doubler, producer], waitUntilFinished: false)
            kataGrade("sameQueue", doubler, producer, expect: 42)
        }

        // 2. Two queues, the producer's held 0.3 s: only the dependency orders them.
        do {
            let producer = Producer(value: 8)
            let doubler = Doubler()
            doubler.addDependency(producer)
            let held = OperationQueue()
            held.isSuspended = true
            held.addOperation(producer)
            OperationQueue().addOperation(doubler)
            usleep(300_000)
            held.isSuspended = false
            kataGrade("acrossQueues", doubler, producer, expect: 16)
        }

        // 3. The producer cancelled before it starts: the doubler still runs (a
        // cancelled dependency counts as finished) and has nothing to double.
        do {
            let producer = Producer(value: 5)
            let doubler = Doubler()
            doubler.addDependency(producer)
            producer.cancel()
            OperationQueue().addOperations([producer, doubler], waitUntilFinished: false)
            kataGrade("cancelledProducer", doubler, producer, expect: nil)
        }

        // 4. Twenty pairs at once on one queue: each doubler gets its own
        // producer's value, not another's.
        do {
            let pairs = (1...20).map { value -> (Producer, Doubler) in
                let producer = Producer(value: value)
                let doubler = Doubler()
                doubler.addDependency(producer)
                return (producer, doubler)
            }
            let queue = OperationQueue()
            queue.addOperations(pairs.flatMap { [$0.0, $0.1] as [Operation] }.reversed(), waitUntilFinished: false)
            if !kataFinished(pairs.flatMap { [$0.0, $0.1] as [Operation] }, within: 10) {
                kataReport("manyPairs", "neverFinished")
            } else {
                let wrong = pairs.filter { $0.1.result != 2 * $0.0.value }.count
                kataReport("manyPairs", wrong == 0 ? "pass" : "mixedUp", count: wrong)
            }
        }

        """#
}
