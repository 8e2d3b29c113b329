extension Kata {
    /// `result-passing`: dependencies order operations but carry no data;
    /// the dependent fetches what it needs from its dependency.
    static let resultPassing = Kata(
        name: "result-passing",
        title: "Passing a result from one operation to the next: a dependency carries no data",
        task: """
            Declare `class Producer: Operation` with `init(value: Int)` and `class Doubler:
            Operation` with `init()`, both not final, each with a `result: Int?` readable
            from any thread. A Producer's main() makes its result, its value. A Doubler is
            made dependent on one Producer, on the same queue or another; its main() sets its
            result to twice that producer's. When the producer was cancelled and made
            nothing, the doubler runs anyway (a cancelled dependency counts as finished) and
            keeps no result.
            """,
        className: "Producer and Doubler",
        requirement: """
            it must declare `class Producer: Operation` with `init(value: Int)` and \
            `class Doubler: Operation` with `init()`, each with `var result: Int?` \
            (and Producer's `value`)
            """,
        starter: resultPassingStarter,
        harness: resultPassingHarness,
        raceHarness: nil,
        checks: resultPassingChecks,
        timeLimit: 60,
        concepts: ["dependencies", "cancellation"])

    private static let carriesNoData = """
        A dependency orders two operations and carries nothing: the dependent reads what \
        it needs from its dependency in its own main() (through `dependencies`, or a \
        reference it was given), which runs only once the dependency finished.
        """
    private static let neverFinished = """
        Both are synchronous: main() does the work and returns, and Foundation finishes the \
        operation; a main() that waits for something that never comes holds it for ever.
        """

    static let resultPassingChecks: [KataCheck] = [
        KataCheck(
            id: "sameQueue", title: "a doubler after its producer, on one queue, gets twice its value",
            outcomes: [
                "pass": .pass("its result is {count}"),
                "noResult": .fail("the doubler kept no result: it found no value", rule: carriesNoData),
                "wrongResult": .fail("the doubler's result is {count}, not 42", rule: carriesNoData),
                "neverFinished": .fail("the two did not both finish within 5s", rule: neverFinished),
            ]),
        KataCheck(
            id: "acrossQueues", title: "on two queues, the producer's held back 0.3s, only the dependency orders them",
            outcomes: [
                "pass": .pass("its result is {count}"),
                "noResult": .fail(
                    "the doubler kept no result: it found no value",
                    rule: """
                        The dependency, not the queues, orders the two: a producer on another \
                        queue, held back, still runs first, and the doubler reads it then.
                        """),
                "wrongResult": .fail("the doubler's result is {count}, not 16", rule: carriesNoData),
                "neverFinished": .fail("the two did not both finish within 5s", rule: neverFinished),
            ]),
        KataCheck(
            id: "cancelledProducer", title: "its producer cancelled, the doubler still runs and has nothing to double",
            outcomes: [
                "pass": .pass("the doubler ran and kept no result"),
                "resultWithoutInput": .fail(
                    "the doubler's result is {count}, though its producer was cancelled and made nothing",
                    rule: """
                        A cancelled dependency counts as finished: the dependent runs, and must look at \
                        what its dependency made (nothing, here) rather than take a value from elsewhere.
                        """),
                "neverFinished": .fail("the two did not both finish within 5s", rule: neverFinished),
            ]),
        KataCheck(
            id: "manyPairs", title: "twenty pairs at once: each doubler doubles its own producer's value",
            outcomes: [
                "pass": .pass("all 20 doubled their own producer's value"),
                "mixedUp": .fail(
                    "{count} of the 20 doublers did not double their own producer's value",
                    rule: """
                        Pass the value through the operations themselves (the dependency, or a \
                        reference given at init), never through a shared variable: pairs run at once.
                        """),
                "neverFinished": .fail("the 40 operations did not all finish within 10s", rule: neverFinished),
            ]),
    ]

    static let resultPassingStarter = """
        import Foundation

        // opscope kata result-passing
        //
        // A dependency orders two operations; it carries no data. Write a
        // Producer that makes a value and a Doubler that doubles the value of
        // the Producer it depends on. Check it with:
        //   opscope kata result-passing
        //
        // What the checks ask:
        // - a doubler after its producer, on one queue, gets twice its value;
        // - the same across two queues, the producer's held back;
        // - its producer cancelled, the doubler still runs (a cancelled
        //   dependency counts as finished) and keeps no result;
        // - twenty pairs at once: each doubler doubles its own producer's.

        class Producer: Operation, @unchecked Sendable {
            let value: Int
            // TODO: safe to read from any thread.
            var result: Int?

            init(value: Int) {
                self.value = value
                super.init()
            }

            override func main() {
                // TODO: make the result.
            }
        }

        class Doubler: Operation, @unchecked Sendable {
            // TODO: safe to read from any thread.
            var result: Int?

            override func main() {
                // TODO: twice the value of the Producer this one depends on.
            }
        }

        """
}
