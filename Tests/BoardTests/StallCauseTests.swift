import RunEvents
import ScenarioKit
import Testing

/// A stall grouped by root cause (`StallCause.group`), a pure function of
/// the scenario, the stuck map and who suspended what: each kind of cause,
/// its words, and a deadlock through a suspension named as the cycle it is.
@Suite("a stall by root cause")
struct StallCauseTests {
    /// A scenario from its text; names resolved through it.
    struct File {
        let scenario: Scenario

        init(_ source: String) {
            let result = ScenarioReader.read(source)
            scenario = result.scenario ?? Scenario(queues: [], operations: [])
            #expect(result.scenario != nil && !result.hasErrors, "\(source)")
        }

        func op(_ name: String) -> OperationID { scenario.operationID(named: name)! }
        func queue(_ name: String) -> QueueID { scenario.queueID(named: name)! }

        /// The context after `events` (actions and waits, in order).
        func context(_ kinds: [(Double, LifecycleEvent.Kind)]) -> StallContext {
            var context = StallContext(scenario: scenario)
            for (n, (time, kind)) in kinds.enumerated() {
                context.record(LifecycleEvent(seq: n + 1, time: time, kind: kind))
            }
            return context
        }

        func group(_ stuck: [String: StuckReason], context: StallContext? = nil) -> [StallCause] {
            let map = Dictionary(uniqueKeysWithValues: stuck.map { (op($0.key), $0.value) })
            return StallCause.group(map, in: scenario, context: context ?? StallContext(scenario: scenario))
        }
    }

    @Test func aSuspensionWithATimedResumeStillToComeSaysUntilWhen() {
        let file = File(
            """
            queue q max 2
            op a on q work 10ms
            at 1s suspend q
            at 5s resume q

            """)
        let q = file.queue("q")
        // The suspend ran (at index 0), the resume has not.
        let context = file.context([(1, .action(.suspend(q), origin: .timed(0), ignored: nil))])
        let causes = file.group(["a": .queueSuspended(q)], context: context)
        #expect(causes.count == 1)
        let cause = causes[0]
        #expect(cause.kind == .suspended)
        #expect(cause.suspension?.resumes == [StallCause.Resume(origin: .timed(1), hold: nil)])
        #expect(cause.line(in: file.scenario) == "1 operation held: q is suspended until 'at 5s resume q' (line 4) — a")
        #expect(
            cause.story(in: file.scenario)
                == "q suspended at 1.000s by 'at 1s suspend q' (line 3); its only resume is 'at 5s resume q' (line 4)")
    }

    /// The motivating case, small: a completion block suspends photos, and
    /// the only resume is the completion block of an operation that waits
    /// for one on photos.
    static let deadlock = File(
        """
        queue photos max 2
        queue ui serial
        op p1 on photos async 100ms completion suspend photos
        op p4 on photos async 30ms
        op sheet on ui work 20ms after p4 completion resume photos
        op badge on ui work 5ms after sheet

        """)

    @Test func aSuspensionWhoseOnlyResumeWaitsBehindItIsADeadlockNamedAsItsCycle() {
        let file = Self.deadlock
        let (photos, p1, p4, sheet) = (file.queue("photos"), file.op("p1"), file.op("p4"), file.op("sheet"))
        let context = file.context([(4.022, .action(.suspend(photos), origin: .completion(p1), ignored: nil))])
        let causes = file.group(
            [
                "p4": .queueSuspended(photos), "sheet": .waitsFor(p4, root: p4),
                "badge": .waitsFor(sheet, root: p4),
            ], context: context)
        #expect(causes.count == 1)
        let cause = causes[0]
        #expect(cause.kind == .deadlock)
        #expect(cause.count == 3)
        #expect(cause.suspension?.by == .action(StallContext.Suspension(origin: .completion(p1), time: 4.022)))
        #expect(cause.suspension?.resumes.first?.hold?.cycle == true)
        let lines = StallCause.reportLines(causes, in: file.scenario)
        #expect(
            lines == [
                "3 operations held by a deadlock: photos is suspended, and what would resume it waits behind it "
                    + "— p4, sheet and badge",
                "  photos suspended at 4.022s by p1's completion block (line 3); its only resume is sheet's "
                    + "completion block (line 5); sheet waits for p4, on photos",
            ])
        #expect(cause.text(in: file.scenario).hasPrefix("a deadlock: photos is suspended"))
    }

    @Test func aResumeHeldByAnotherCauseIsNoDeadlockAndSaysWhy() {
        let file = File(
            """
            queue q max 2
            queue net max 2
            op a on q work 10ms
            op lost on net async 10ms never-finishes
            op undo on net work 10ms after lost completion resume q
            at 1s suspend q

            """)
        let (q, lost) = (file.queue("q"), file.op("lost"))
        let context = file.context([(1, .action(.suspend(q), origin: .timed(0), ignored: nil))])
        let causes = file.group(
            ["a": .queueSuspended(q), "lost": .neverPostedFinish, "undo": .waitsFor(lost, root: lost)],
            context: context)
        #expect(causes.map(\.kind) == [.neverPostedFinish, .suspended])
        #expect(causes[1].text(in: file.scenario) == "q is suspended, and what would resume it never runs")
        #expect(
            causes[1].story(in: file.scenario)
                == "q suspended at 1.000s by 'at 1s suspend q' (line 6); its only resume is undo's completion block "
                + "(line 5); undo waits for lost, which never posted isFinished")
    }

    @Test func twoSuspensionsThatEachResumeTheOtherAreBothDeadlocks() throws {
        let file = File(
            """
            queue a max 1
            queue b max 1
            op x on b work 10ms completion resume a
            op y on a work 10ms completion resume b

            """)
        let (a, b) = (file.queue("a"), file.queue("b"))
        let context = file.context([
            (1, .action(.suspend(a), origin: .user, ignored: nil)),
            (2, .action(.suspend(b), origin: .user, ignored: nil)),
        ])
        let causes = file.group(["x": .queueSuspended(b), "y": .queueSuspended(a)], context: context)
        #expect(causes.map(\.kind) == [.deadlock, .deadlock])
        // a's only resume is x's block, and x is on b; b's is y's, on a.
        #expect(
            causes[0].story(in: file.scenario)
                == "b suspended at 2.000s by a key press; its only resume is y's completion block (line 4); "
                + "y is on a, suspended too")
        #expect(
            causes[1].story(in: file.scenario)
                == "a suspended at 1.000s by a key press; its only resume is x's completion block (line 3); "
                + "x is on b, suspended too")
        // Said from its own queue's side, a holder on it is not "too".
        let hold = try #require(causes[0].suspension?.resumes.first?.hold)
        #expect(StallCause.holdText(hold, about: a, in: file.scenario) == "y is on a")
    }

    @Test func aQueueDeclaredSuspendedWithNoResumeSaysSoAndWhatTheUserCanStillDo() {
        let file = File(
            """
            queue held suspended
            op x on held work 10ms

            """)
        let causes = file.group(["x": .queueSuspended(file.queue("held"))])
        #expect(causes[0].kind == .suspended)
        #expect(causes[0].line(in: file.scenario) == "1 operation held: held is suspended and nothing resumes it — x")
        #expect(
            causes[0].text(in: file.scenario, waiting: true) == "held is suspended and nothing in the file resumes it")
        #expect(
            causes[0].story(in: file.scenario)
                == "held suspended from the start (its queue line, line 1); nothing left in the file resumes it")
    }

    @Test func waitsForChainsAreGroupedUnderTheOperationThatNeverPostsIsFinished() {
        let file = File(
            """
            queue net serial
            queue disk
            op lost on net async 10ms never-finishes
            op b on disk work 10ms after lost
            op c on disk work 10ms after b
            op d on disk work 10ms after c
            op e on net work 10ms
            op gone on disk async 10ms never-finishes
            op g on disk work 10ms after gone

            """)
        let (lost, b, c, gone) = (file.op("lost"), file.op("b"), file.op("c"), file.op("gone"))
        let causes = file.group([
            "lost": .neverPostedFinish, "b": .waitsFor(lost, root: lost), "c": .waitsFor(b, root: lost),
            "d": .waitsFor(c, root: lost),
            // Ready on net, whose one slot lost holds.
            "e": .waitsFor(lost, root: lost),
            "gone": .neverPostedFinish, "g": .waitsFor(gone, root: gone),
        ])
        #expect(causes.map(\.count) == [5, 2])
        #expect(causes.map(\.root) == [.neverPostedFinish(lost), .neverPostedFinish(gone)])
        #expect(
            causes[0].line(in: file.scenario)
                == "5 operations held: lost never posted isFinished: it holds a slot of net and does nothing — "
                + "lost, b, c and 2 more")
        #expect(causes[1].text(in: file.scenario).hasSuffix("it holds a slot of disk and does nothing"))
        #expect(causes.allSatisfy { $0.story(in: file.scenario) == nil })
    }

    @Test func theMainThreadBlockedHoldsTheMainQueueAndWhatWaitsForIt() {
        let file = File(
            """
            queue ui main
            queue net
            op badge on ui work 10ms
            op after-badge on net work 10ms after badge
            at 100ms wait badge

            """)
        let badge = file.op("badge")
        let context = file.context([
            (0.1, .action(.wait(badge), origin: .timed(0), ignored: nil)),
            (0.1, .mainThreadWait(.wait(badge), phase: .started)),
        ])
        let causes = file.group(
            ["badge": .mainThreadBlocked, "after-badge": .waitsFor(badge, root: badge)], context: context)
        #expect(causes.count == 1)
        #expect(causes[0].kind == .mainThreadBlocked)
        #expect(
            causes[0].line(in: file.scenario)
                == "2 operations held: the main thread is blocked in badge.waitUntilFinished(), so the main queue "
                + "runs nothing — badge and after-badge")
    }

    @Test func whatTheRunCannotTellIsOneGroup() {
        let file = File(
            """
            queue q
            op u on q work 10ms
            op v on q work 10ms after u
            op w on q work 10ms

            """)
        let u = file.op("u")
        let causes = file.group(["u": .unknown, "v": .waitsFor(u, root: u), "w": .unknown])
        #expect(causes.count == 1)
        #expect(causes[0].kind == .unknown)
        #expect(causes[0].line(in: file.scenario) == "3 operations held: the run cannot tell why — u, v and w")
    }

    @Test func aFinishedOperationsCompletionBlockIsNoResumeLeft() {
        // undo finished (not stuck): its block ran before the suspension.
        let file = File(
            """
            queue q
            op undo on q work 10ms completion resume q
            op a on q work 10ms
            at 1s suspend q

            """)
        let q = file.queue("q")
        let context = file.context([(1, .action(.suspend(q), origin: .timed(0), ignored: nil))])
        let causes = file.group(["a": .queueSuspended(q)], context: context)
        #expect(causes[0].suspension?.resumes == [])
        #expect(causes[0].text(in: file.scenario) == "q is suspended and nothing resumes it")
    }

    /// 100,000 stuck operations: a suspended queue holding half of them
    /// (and a chain waiting on one of those), an operation that never
    /// posts isFinished with a long chain behind it, and a few the run
    /// cannot tell. Counts, not time (the benchmark times it, release).
    @Test func aHundredThousandStuckOperationsAreGroupedByTheirRoots() {
        let count = 100_000
        var operations: [OperationSpec] = []
        var stuck: [OperationID: StuckReason] = [:]
        operations.reserveCapacity(count)
        stuck.reserveCapacity(count)
        let photos = QueueID(0)
        let net = QueueID(1)
        for i in 0..<count {
            let id = OperationID(i)
            let queue: QueueID
            switch i {
            case ..<50_000:
                queue = photos
                stuck[id] = .queueSuspended(photos)
            case 50_000:
                queue = net
                stuck[id] = .neverPostedFinish
            case ..<99_000:
                // A chain: each waits for the one before it, rooted at 50,000.
                queue = net
                stuck[id] = .waitsFor(OperationID(i - 1), root: OperationID(50_000))
            case ..<99_990:
                // Waiting for an operation on suspended photos.
                queue = net
                stuck[id] = .waitsFor(OperationID(i % 50_000), root: OperationID(i % 50_000))
            default:
                queue = net
                stuck[id] = .unknown
            }
            operations.append(OperationSpec(name: "op\(i)", queue: queue, body: .work(.milliseconds(1))))
        }
        let scenario = Scenario(
            queues: [QueueSpec(name: "photos", cap: .limit(4), startsSuspended: true), QueueSpec(name: "net")],
            operations: operations)
        let causes = StallCause.group(stuck, in: scenario, context: StallContext(scenario: scenario))
        #expect(causes.map(\.kind) == [.suspended, .neverPostedFinish, .unknown])
        #expect(causes.map(\.count) == [50_990, 49_000, 10])
        #expect(causes.reduce(0) { $0 + $1.count } == count)
        #expect(causes[0].suspension?.by == .declared)
        #expect(causes[1].root == .neverPostedFinish(OperationID(50_000)))
        #expect(causes[0].firstNames(in: scenario) == ["op0", "op1", "op2"])
    }
}
