/// Writes a scenario as a complete Swift program that builds the same
/// queues and operations with Foundation's real API (`opscope swift FILE`).
///
/// Pure: `Scenario` → source text. The program is meant to be read by a
/// learner: every piece is commented (why `isFinished` must be posted, what
/// the cap does, that cancel is a flag…), and running it prints
/// `start NAME` / `finish NAME` lines with timestamps, so it shows the
/// start order, then how each operation ended in the quiz's four words
/// (with `--facts`, one machine-readable line per fact as well, which CI
/// compares with `opscope trace`). It ends when `trace` would say the run
/// is over, and a cancelled barrier is over when Foundation finishes it
/// (`BarrierCancellation`). It compiles with `swiftc`
/// in the Swift 5 and Swift 6 language modes, depends on nothing but
/// Foundation, and ends by itself even when the scenario stalls (after a
/// timeout: the last action's time plus all the work done one piece after
/// another, plus 2 s).
///
/// What it cannot show as opscope does: it has no clock to pause or speed
/// up (the scenario's `speed` is a comment), it does not detect a stall
/// before the timeout, expectations are comments at the end, not checks,
/// and captions are comments where they belong (an `at` caption before
/// the timed actions of its time, a `when` caption after its operation's
/// declaration), not output.
public struct SwiftProgramPrinter: Sendable {
    /// The scenario file's path, named in the program's header; nil leaves it out.
    public var sourceName: String?

    public init(sourceName: String? = nil) {
        self.sourceName = sourceName
    }

    public func program(for scenario: Scenario) -> String {
        var writer = ProgramWriter(scenario: scenario, sourceName: sourceName)
        return writer.write()
    }
}

/// The state of writing one program: the scenario, the identifiers chosen
/// for its names, and the lines written so far.
struct ProgramWriter {
    let scenario: Scenario
    let sourceName: String?
    var lines: [String] = []
    var queueNames: [String] = []
    var operationNames: [String] = []
    /// For each barrier that an operation depends on: the operation that stands for it.
    var barrierStandIns: [Int: String] = [:]
    /// For each queue whose barriers a cancel-all may cancel: the
    /// `BarrierCancellation` that its cancel-all and resume go through.
    var cancellations: [Int: String] = [:]
    /// The completion blocks `waitForTheEnd` waits for besides the operations.
    var events: [String] = []
    /// The timed actions' events, with their times.
    var timedEvents: [(event: String, time: Duration)] = []
    /// The topics already explained by a comment: each is explained once,
    /// where it first appears.
    var explained: Set<String> = []

    init(scenario: Scenario, sourceName: String?) {
        self.scenario = scenario
        self.sourceName = sourceName
        var identifiers = SwiftIdentifiers()
        queueNames = scenario.queues.map { identifiers.claim($0.name, suffix: "Queue") }
        operationNames = scenario.operations.map { identifiers.claim($0.name, suffix: "Op") }
        let dependedOn = Set(scenario.operations.flatMap(\.dependencies).map(\.index))
        for (index, op) in scenario.operations.enumerated() where op.isBarrier && dependedOn.contains(index) {
            barrierStandIns[index] = identifiers.claim(op.name + "Done", suffix: "_")
        }
        for queue in scenario.queuesWithCancellableBarriers {
            cancellations[queue.index] = identifiers.claim(scenario[queue: queue].name + "Barriers", suffix: "_")
        }
    }

    mutating func write() -> String {
        header()
        lines.append("import Foundation")
        supportCode()
        lines += ["", "// MARK: - The scenario", "", "func runScenario() -> Never {"]
        if let speed = scenario.speed {
            lines += SwiftIdentifiers.comment(
                SwiftProgramPrinter.speedComment(speed, promisedUpTo: scenario.promisedUpTo), indent: "    ",
                width: 72)
        }
        lines += [
            "    // Start the clock: every printed line says how long after this moment.",
            "    _ = Clock.start",
            "    let tally = Tally()",
        ]
        if let title = scenario.title {
            lines.append("    say(\(SwiftIdentifiers.stringLiteral(title)))")
        }
        queues()
        operations()
        configuration()
        addAtTimeZero()
        timedActions()
        ending()
        lines.append("}")
        lines += ["", "runScenario()"]
        expectations()
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `text` as a comment the first time `topic` comes up.
    mutating func explainOnce(_ topic: String, _ text: String, indent: String = "    ") {
        guard explained.insert(topic).inserted else { return }
        lines += SwiftIdentifiers.comment(text, indent: indent, width: 76 - indent.count)
    }

    // MARK: Header and support code

    mutating func header() {
        lines += SwiftIdentifiers.comment(scenario.title ?? "An opscope scenario")
        for note in scenario.notes {
            lines.append("//")
            lines += SwiftIdentifiers.comment(note)
        }
        lines.append("//")
        let origin = sourceName.map { "by `opscope swift \($0)` from that scenario file" } ?? "by `opscope swift`"
        lines += SwiftIdentifiers.comment(
            "This program was written \(origin). It builds the same queues and operations with Foundation's real "
                + "OperationQueue API. Run it with:")
        if scenario.code.isEmpty {
            lines += ["//", "//     swiftc -O scenario.swift -o scenario && ./scenario", "//"]
        } else {
            // Top-level code is allowed in one file of several: main.swift.
            let files = scenario.code.map { SwiftProgramPrinter.shellWord($0.path) }.joined(separator: " ")
            lines += [
                "//", "//     swiftc -O main.swift \(files) -o scenario && ./scenario", "//",
                "// with this program saved as main.swift, beside the scenario's code:",
            ]
            lines += scenario.code.map { "//     " + SwiftIdentifiers.commentText($0.path) }
            lines.append("//")
        }
        lines += [
            "// Each line it prints starts with the time since the program started:",
            "//     start NAME    the queue started the operation (it is executing)",
            "//     finish NAME   its work is done (it is about to post isFinished)",
            "// so the start lines show the order in which the queues started them.",
            "// At the end it prints how each operation ended: finished, cancelled (it",
            "// was cancelled while it ran), skipped (cancelled before it started: it",
            "// finished without running) or stuck (it never finished). With --facts it",
            "// also prints one line per fact for tools: `fact start NAME SECONDS`, in",
            "// the order they started, `fact end NAME HOW` and `fact outcome completed`",
            "// (or `stalled`).",
        ]
        if let quiz = scenario.quiz {
            lines.append("//")
            lines += SwiftIdentifiers.comment("Quiz: " + quiz.question)
            switch quiz.kind {
            case .startOrder:
                lines += SwiftIdentifiers.comment(
                    "Answer with the order in which the operations start, then run the program to check.")
            case .finalState:
                lines += SwiftIdentifiers.comment(
                    "Answer with how each operation ends (finished, cancelled, skipped, stuck), then run the "
                        + "program to check.")
            case .peak:
                lines += SwiftIdentifiers.comment(
                    "Answer with how many of each queue's operations execute at once, at most, then run the "
                        + "program to check.")
            case .counts:
                lines += SwiftIdentifiers.comment(
                    "Answer with how many operations end each way (finished, cancelled, skipped, stuck), then "
                        + "run the program to check.")
            case .mainThread:
                lines += SwiftIdentifiers.comment(
                    "Answer with the operations that run on the main thread, then run the program to check.")
            case .completions:
                let what =
                    quiz.operands.first.map { "run before \(scenario[operation: $0].name) starts" } ?? "run at all"
                lines += SwiftIdentifiers.comment(
                    "Answer with the operations whose completion blocks \(what), then run the program to check.")
            case .columns:
                let moment = ScenarioPrinter.format(quiz.moment ?? .zero)
                lines += SwiftIdentifiers.comment(
                    "Answer with how many operations are pending, ready, executing, finished and cancelled at "
                        + "\(moment), then run the program to check.")
            case .together:
                let names = quiz.operands.map { scenario[operation: $0].name }.joined(separator: " and ")
                lines += SwiftIdentifiers.comment(
                    "Answer yes or no: do \(names) ever execute at the same time? Then run the program to check.")
            }
        }
        lines.append("")
    }

    mutating func supportCode() {
        let ops = scenario.operations
        var parts = [SwiftProgramPrinter.printing, SwiftProgramPrinter.simulatedWork]
        var operationParts: [String] = []
        if ops.contains(where: { if case .work = $0.body { !$0.ignoresCancel } else { false } }) {
            operationParts.append(SwiftProgramPrinter.cooperativeOperation)
        }
        if ops.contains(where: { if case .work = $0.body { $0.ignoresCancel } else { false } }) {
            operationParts.append(SwiftProgramPrinter.nonCooperativeOperation)
        }
        if !scenario.leftovers.isEmpty {
            operationParts.append(SwiftProgramPrinter.workLeftRunning)
        }
        if ops.contains(where: { if case .blocks = $0.body { true } else { false } }) {
            operationParts.append(SwiftProgramPrinter.blockOperation)
        }
        if ops.contains(where: \.body.isAsync) {
            operationParts.append(SwiftProgramPrinter.asyncOperation)
        }
        if ops.contains(where: { $0.body.isAsync && $0.neverFinishes }) {
            operationParts.append(SwiftProgramPrinter.forgetfulOperation)
        }
        if !scenario.forgetsIfCancelled.isEmpty {
            operationParts.append(SwiftProgramPrinter.forgetsWhenCancelledOperation)
        }
        if ops.contains(where: \.isBarrier) {
            operationParts.append(SwiftProgramPrinter.barrier)
        }
        var watched = Set<String>()
        for op in ops {
            guard let type = op.body.customClass, watched.insert(type).inserted else { continue }
            operationParts.append(SwiftProgramPrinter.watched(type))
        }
        if !cancellations.isEmpty {
            operationParts.append(SwiftProgramPrinter.barrierCancellation)
        }
        if !operationParts.isEmpty {
            parts.append("// MARK: - Operations\n\n" + operationParts.joined(separator: "\n\n"))
        }
        if scenario.actions.contains(where: { if case .start = $0.action { true } else { false } }) {
            parts.append(SwiftProgramPrinter.startByHand)
        }
        parts.append(SwiftProgramPrinter.ending)
        for part in parts {
            lines.append("")
            lines.append(part)
        }
    }

    // MARK: Queues

    mutating func queues() {
        lines += ["", "    // MARK: Queues"]
        for (index, queue) in scenario.queues.enumerated() {
            let name = queueNames[index]
            lines.append("")
            if queue.isMain {
                lines += SwiftIdentifiers.comment(
                    "\(queue.name): OperationQueue.main runs its operations one at a time on the main thread, "
                        + "while the main thread runs its run loop (see waitForTheEnd). It ignores name, "
                        + "maxConcurrentOperationCount, isSuspended, qualityOfService and cancelAllOperations().",
                    indent: "    ", width: 72)
                lines.append("    let \(name) = OperationQueue.main")
                continue
            }
            lines.append("    let \(name) = OperationQueue()")
            lines.append("    \(name).name = \(SwiftIdentifiers.stringLiteral(queue.name))")
            switch queue.cap {
            case .systemDefault:
                lines.append("    // No cap of its own: the system decides how many operations run at once.")
                lines.append(
                    "    \(name).maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount")
            case .limit(1):
                lines += SwiftIdentifiers.comment(
                    "Serial: one operation at a time; among the ready ones, the highest queuePriority first, then "
                        + "the one added first.", indent: "    ", width: 72)
                lines.append("    \(name).maxConcurrentOperationCount = 1")
            case .limit(let n):
                lines += SwiftIdentifiers.comment(
                    "The cap: at most \(n) of its operations execute at once; the others wait, ready, until one "
                        + "finishes.", indent: "    ", width: 72)
                lines.append("    \(name).maxConcurrentOperationCount = \(n)")
            }
            if let qos = queue.qos {
                lines.append("    // The quality of service of the work it runs, unless an operation says otherwise.")
                lines.append("    \(name).qualityOfService = .\(qos.rawValue)")
            }
            if queue.startsSuspended {
                lines += SwiftIdentifiers.comment(
                    "Suspended: it accepts operations but starts none until isSuspended is set back to false.",
                    indent: "    ", width: 72)
                lines.append("    \(name).isSuspended = true")
            }
        }
    }

    // MARK: Captions

    /// The `when` captions of the operation at `index`, as comments.
    mutating func whenCaptions(of index: Int) {
        for caption in scenario.captions {
            if case .when(let op, _) = caption.trigger, op.index == index { captionComment(caption) }
        }
    }

    /// One caption as a comment; the first one also says what captions are.
    mutating func captionComment(_ caption: Caption) {
        explainOnce("captions", SwiftProgramPrinter.captionsExplanation)
        lines += SwiftIdentifiers.comment(
            SwiftProgramPrinter.captionText(caption, in: scenario), indent: "    ", width: 72)
    }

    // MARK: Dependencies and completion blocks

    mutating func configuration() {
        let withDependencies = scenario.operations.indices.filter { !scenario.operations[$0].dependencies.isEmpty }
        if !withDependencies.isEmpty {
            lines += ["", "    // MARK: Dependencies", ""]
            lines += SwiftIdentifiers.comment(
                "An operation stays pending (isReady is false) until every operation it depends on has finished; a "
                    + "cancelled dependency counts as finished. Dependencies may cross queues.", indent: "    ",
                width: 72)
            for index in withDependencies {
                for dependency in scenario.operations[index].dependencies {
                    let target = barrierStandIns[dependency.index] ?? operationNames[dependency.index]
                    lines.append("    \(operationNames[index]).addDependency(\(target))")
                }
            }
        }
        let withCompletion = scenario.operations.indices.filter { scenario.operations[$0].completion != nil }
        guard !withCompletion.isEmpty else { return }
        lines += ["", "    // MARK: Completion blocks", ""]
        lines += SwiftIdentifiers.comment(
            "A completion block runs once its operation has finished (cancelled or not), on another thread, "
                + "always after the operation's dependents were released: a dependent may start before it runs.",
            indent: "    ", width: 72)
        for index in withCompletion {
            let op = scenario.operations[index]
            let event = "completion of \(op.name)"
            events.append(event)
            lines.append("    \(operationNames[index]).completionBlock = {")
            lines.append("        say(\(SwiftIdentifiers.stringLiteral("completion block of " + op.name)))")
            for action in op.completion ?? [] {
                let text = ScenarioPrinter.actionText(action, in: scenario)
                lines.append(
                    "        say(\(SwiftIdentifiers.stringLiteral("completion block of \(op.name): \(text)")))")
                lines += actionCode(action, indent: "        ")
            }
            lines.append("        tally.mark(\(SwiftIdentifiers.stringLiteral(event)))")
            lines.append("    }")
        }
    }

    // MARK: Adding and timed actions
}

extension Scenario {
    /// The queues (not the main queue, which ignores `cancelAllOperations()`)
    /// that have a barrier and that a cancel-all names, at a time or in a
    /// completion block: their barriers may be cancelled. In file order.
    var queuesWithCancellableBarriers: [QueueID] {
        let cancelled = Set(
            (actions.map(\.action) + operations.flatMap { $0.completion ?? [] }).compactMap { action -> QueueID? in
                if case .cancelAll(let queue) = action { queue } else { nil }
            })
        let withBarriers = Set(operations.filter(\.isBarrier).map(\.queue))
        return queues.indices.map(QueueID.init).filter {
            cancelled.contains($0) && withBarriers.contains($0) && !queues[$0.index].isMain
        }
    }
}
