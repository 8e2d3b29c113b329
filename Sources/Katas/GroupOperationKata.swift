extension Kata {
    /// `group-operation`: an operation made of operations, finished when
    /// all of them are, without holding a thread meanwhile.
    static let groupOperation = Kata(
        name: "group-operation",
        title: "A group operation: runs its children on a queue of its own, finishes when all of them did",
        task: """
            Declare `class GroupOperation: Operation` (not final) with `init(children:
            [Operation])`. Started, it runs its children on an OperationQueue of its own
            and finishes once every child finished, without holding a thread while they
            run (it is asynchronous). Cancelled, it cancels its children and finishes
            promptly. With no children it finishes at once.
            """,
        className: "GroupOperation",
        requirement: "it must declare `class GroupOperation: Operation` (not final) with `init(children: [Operation])`",
        starter: groupOperationStarter,
        harness: groupOperationHarness,
        raceHarness: nil,
        checks: groupOperationChecks,
        timeLimit: 60,
        concepts: ["async", "dependencies", "cancellation"])

    static let groupOperationChecks: [KataCheck] = [
        KataCheck(
            id: "afterChildren", title: "a dependent of the group starts only once all five children ended",
            outcomes: [
                "pass": .pass("the dependent started at {at}, after the last child ended"),
                "startWaits": .fail(
                    "start() returned only after {at}: it held its thread while the children ran",
                    rule: """
                        A group is asynchronous: start() hands the children to its queue and \
                        returns; what follows the last child (an operation that depends on all \
                        of them, say) finishes the group.
                        """),
                "early": .fail(
                    "the dependent started at {at}, while {count} of the children had not ended",
                    rule: """
                        The group finishes only once every child finished: make its finish \
                        depend on all of them.
                        """),
                "notTold": .fail(
                    "isFinished said true, but Foundation was never told: the dependent never started",
                    rule: finishTold),
                "neverFinished": .fail("it never finished: the dependent had not started at {at}", rule: finishTold),
            ]),
        KataCheck(
            id: "empty", title: "with no children it finishes at once",
            outcomes: [
                "pass": .pass("it finished at {at}"),
                "notTold": .fail("isFinished said true, but Foundation was never told", rule: finishTold),
                "neverFinished": .fail(
                    "it had not finished at {at}",
                    rule: "With nothing to wait for, the group finishes as soon as it starts."),
            ]),
        KataCheck(
            id: "cancel", title: "cancelled while its children run, it cancels them and finishes within a second",
            outcomes: [
                "pass": .pass("the children saw the cancel, the waiting one never started, and it finished {at} after"),
                "waitingStarted": .fail(
                    "a child that was still waiting started after the cancel",
                    rule: """
                        Foundation's cancel() only sets the group's own flag: override cancel() \
                        (calling super) to cancel every child, so that those not started never \
                        run their work and those running can stop.
                        """),
                "childrenNotCancelled": .fail(
                    "the running children never saw the cancel",
                    rule: """
                        Override cancel() (calling super) to cancel every child: a running child \
                        looks at its own isCancelled, not its group's.
                        """),
                "slow": .fail(
                    "it finished {at} after the cancel: more than a second",
                    rule: "A cancelled group finishes once its cancelled children did, which is promptly."),
                "notTold": .fail(
                    "isFinished said true {at} after the cancel, but Foundation was never told", rule: finishTold),
                "neverFinished": .fail("it had not finished {at} after the cancel", rule: finishTold),
                "neverStarted": .fail(
                    "its first child had not started within 3s of the group being added, so no cancel was tried",
                    rule: "Started, the group hands its children to its own queue at once."),
            ]),
        KataCheck(
            id: "released", title: "nothing keeps it alive once its queue is done with it",
            outcomes: [
                "pass": .pass("it was released"),
                "alive": .fail(
                    "it is still alive after the run: something it holds holds it",
                    rule: """
                        What finishes the group (a closure on its queue, a completion block) \
                        captures it weakly, or the group and its queue keep each other alive.
                        """),
                "neverFinished": .fail(
                    "its queue was never done with it, so its release could not be tried", rule: finishTold),
            ]),
    ]

    static let groupOperationStarter = """
        import Foundation

        // opscope kata group-operation
        //
        // An operation made of operations: started, it runs its children on
        // a queue of its own and finishes once all of them did, without
        // holding a thread meanwhile. Check it with:
        //   opscope kata group-operation
        //
        // What the checks ask:
        // - a dependent of the group starts only once every child ended, and
        //   start() returns at once;
        // - with no children it finishes at once;
        // - cancelled, it cancels its children (those waiting never start)
        //   and finishes within a second;
        // - once its queue is done with it, nothing keeps it alive.

        class GroupOperation: Operation, @unchecked Sendable {
            private let children: [Operation]
            private let queue = OperationQueue()

            init(children: [Operation]) {
                self.children = children
                super.init()
            }

            override var isAsynchronous: Bool { true }

            // TODO: isExecuting and isFinished, safe from any thread, each
            // change between willChangeValue(forKey:) and didChangeValue(forKey:).

            override func start() {
                // TODO: run the children on `queue`; finish once all finished.
            }

            // TODO: cancel() that reaches the children.
        }

        """
}
