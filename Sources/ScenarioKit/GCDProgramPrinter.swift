/// Writes a scenario's graph as a Swift program with plain GCD and no
/// `Operation` at all (`opscope swift --gcd FILE`): a `DispatchQueue` for
/// each queue, a `DispatchWorkItem` for each operation, a `DispatchGroup`
/// for each one's end, which its dependents wait for, a semaphore for a
/// cap. Printed beside the Operation program (`SwiftProgramPrinter`), it
/// shows what each of Foundation's conveniences is made of in GCD, and
/// where GCD has none: the program's header names, for this scenario,
/// what it does differently and what it leaves out.
///
/// It prints the same lines as the Operation program (`start NAME`,
/// `finish NAME`, and at the end how each operation ended in the quiz's
/// four words), so that the two runs can be read side by side. It compiles
/// with `swiftc` in the Swift 5 and 6 language modes and ends by itself
/// (after the same timeout as the Operation program).
public struct GCDProgramPrinter: Sendable {
    public var sourceName: String?

    public init(sourceName: String? = nil) {
        self.sourceName = sourceName
    }

    public func program(for scenario: Scenario) -> String {
        var writer = GCDProgramWriter(scenario: scenario, sourceName: sourceName)
        return writer.write()
    }

    /// Why no GCD program can be written for `scenario`, or nil: an
    /// operation of the user's own class is an `Operation` subclass, whose
    /// code GCD cannot run without `Operation`.
    public static func unwritable(_ scenario: Scenario) -> String? {
        guard let id = scenario.customOperations.first else { return nil }
        let op = scenario[operation: id]
        return "'\(op.name)' is your class \(op.body.customClass ?? "?"), an Operation subclass: GCD has no form of "
            + "your own Operation code (opscope swift FILE writes the program with OperationQueue)"
    }

    /// What GCD does differently from Foundation's operations for this
    /// scenario, or cannot do: a sentence each, in the order the
    /// scenario's features come up. Each rests on a documented API
    /// (no work item has a priority or a cap) or on a fact checked with a
    /// plain program (`.ci/probes/dispatch-facts.swift`: gcdcancelnotify,
    /// gcdcancelrunning, gcdserialqos).
    public static func differences(_ scenario: Scenario) -> [String] {
        var notes: [String] = []
        let ops = scenario.operations
        let actions = scenario.actions.map(\.action) + ops.flatMap { $0.completion ?? [] }
        if ops.contains(where: { !$0.dependencies.isEmpty }) {
            notes.append(
                "A work item has no dependencies: a dependent is submitted to its queue only once every item it "
                    + "waits for has ended (a DispatchGroup's notify), so until then it is in no queue at all, where "
                    + "an operation waits in its queue, pending.")
        }
        if scenario.queues.contains(where: { !$0.isMain && ($0.limit ?? 0) > 1 }) {
            notes.append(
                "A DispatchQueue has no cap: a semaphore lets that many of its blocks run at once. The program "
                    + "takes a slot before it submits each block, on a serial queue of its own, so that the blocks "
                    + "waiting for a slot do not each hold a worker thread; where an operation waiting for its "
                    + "queue's cap is in the queue, ready, such a block is in no queue yet.")
        }
        if actions.contains(where: { if case .setCap = $0 { true } else { false } }) {
            notes.append(
                "A cap cannot change while it runs: a semaphore's count is set when it is made, and this program "
                    + "leaves the change out.")
        }
        if ops.contains(where: { $0.priority != nil })
            || actions.contains(where: { if case .setPriority = $0 { true } else { false } })
        {
            notes.append(
                "A work item has no queuePriority: a serial DispatchQueue runs its items in the order they were "
                    + "submitted, whatever their quality of service, so the priorities are left out.")
        }
        if actions.contains(where: { if case .addBatch = $0 { true } else { false } }) {
            notes.append(
                "There is no addOperations call: the items of an `add A, B` are submitted one after another, and "
                    + "a queue runs them in that order.")
        }
        if actions.contains(where: { if case .cancel = $0 { true } else { false } }) {
            notes.append(
                "cancel() on a work item that has not started keeps its block from running; its dependents are "
                    + "still let go once its queue reaches it. On one that runs it only sets isCancelled, as on an "
                    + "operation.")
        }
        if actions.contains(where: { if case .cancelAll = $0 { true } else { false } }) {
            notes.append(
                "A DispatchQueue cannot cancel what it holds: the program keeps each queue's items and cancels "
                    + "them one by one.")
        }
        if ops.contains(where: \.body.isAsync) {
            notes.append(
                "An asynchronous piece of work ends when its own callback says so: the program leaves its group "
                    + "there (and gives its slot back), as an asynchronous operation posts isFinished.")
        }
        if actions.contains(where: { if case .start = $0 { true } else { false } }) {
            notes.append("A work item cannot be started by hand the way start() runs an operation: left out.")
        }
        return notes
    }
}

/// The state of writing one GCD program.
struct GCDProgramWriter {
    let scenario: Scenario
    let sourceName: String?
    var lines: [String] = []
    var queueNames: [String] = []
    var slotNames: [String?] = []
    /// Each queue's `QueueHold`, for those a suspend or resume names.
    var holdNames: [String?] = []
    var stepNames: [String] = []

    init(scenario: Scenario, sourceName: String?) {
        self.scenario = scenario
        self.sourceName = sourceName
        var identifiers = SwiftIdentifiers()
        queueNames = scenario.queues.map { identifiers.claim($0.name, suffix: "Queue") }
        slotNames = scenario.queues.map { queue in
            !queue.isMain && (queue.limit ?? 0) > 1 ? identifiers.claim(queue.name + "Slots", suffix: "_") : nil
        }
        let held = Set(
            (scenario.actions.map(\.action) + scenario.operations.flatMap { $0.completion ?? [] }).compactMap {
                action -> QueueID? in
                switch action {
                case .suspend(let q), .resume(let q): q
                default: nil
                }
            })
        holdNames = scenario.queues.enumerated().map { index, queue in
            !queue.isMain && (queue.startsSuspended || held.contains(QueueID(index)))
                ? identifiers.claim(queue.name + "Hold", suffix: "_") : nil
        }
        stepNames = scenario.operations.map { identifiers.claim($0.name, suffix: "Step") }
    }

    mutating func write() -> String {
        header()
        lines += ["import Foundation", "", SwiftProgramPrinter.printing, "", SwiftProgramPrinter.simulatedWork, ""]
        lines.append(GCDProgramPrinter.support)
        lines += ["", "// MARK: - The scenario", "", "func runScenario() -> Never {", "    _ = Clock.start"]
        if let title = scenario.title { lines.append("    say(\(SwiftIdentifiers.stringLiteral(title)))") }
        queues()
        steps()
        dependencies()
        start()
        timedActions()
        ending()
        lines += ["}", "", "runScenario()"]
        return lines.joined(separator: "\n") + "\n"
    }

    mutating func header() {
        lines += SwiftIdentifiers.comment((scenario.title ?? "An opscope scenario") + ", with plain GCD")
        lines.append("//")
        let origin = sourceName.map { "`opscope swift --gcd \($0)`" } ?? "`opscope swift --gcd`"
        lines += SwiftIdentifiers.comment(
            "Written by \(origin): the scenario's queues and operations as DispatchQueues, DispatchWorkItems, "
                + "DispatchGroups and semaphores, without Operation. `opscope swift` writes the same scenario with "
                + "OperationQueue; both print `start NAME` and `finish NAME` as work starts and ends, and how each "
                + "operation ended, so the two runs can be read side by side. Run it with:")
        lines += ["//", "//     swiftc -O scenario.swift -o scenario && ./scenario", "//"]
        let differences = GCDProgramPrinter.differences(scenario)
        if !differences.isEmpty {
            lines.append("// What GCD does differently here:")
            for difference in differences {
                lines.append("//")
                lines += SwiftIdentifiers.comment("- " + difference).enumerated().map {
                    $0 == 0 ? $1 : "//  " + $1.dropFirst(2)
                }
            }
        }
        lines.append("")
    }

    mutating func queues() {
        lines += ["", "    // MARK: Queues"]
        for (index, queue) in scenario.queues.enumerated() {
            let name = queueNames[index]
            lines.append("")
            if queue.isMain {
                lines += SwiftIdentifiers.comment(
                    "\(queue.name): the main queue runs its blocks one at a time on the main thread, while the "
                        + "main thread runs its run loop (see waitForTheSteps).", indent: "    ", width: 72)
                lines.append("    let \(name) = DispatchQueue.main")
                continue
            }
            let label = SwiftIdentifiers.stringLiteral(queue.name)
            let qos = queue.qos.map { ", qos: .\($0.rawValue)" } ?? ""
            if queue.isSerial {
                lines.append("    // Serial: one block at a time, in the order they were submitted.")
                lines.append("    let \(name) = DispatchQueue(label: \(label)\(qos))")
            } else {
                lines.append("    let \(name) = DispatchQueue(label: \(label)\(qos), attributes: .concurrent)")
                if let slots = slotNames[index], let limit = queue.limit {
                    lines.append(
                        "    let \(slots) = DispatchSemaphore(value: \(limit))  // the cap: \(limit) blocks at once")
                }
            }
            if let hold = holdNames[index] {
                lines.append("    let \(hold) = QueueHold(\(name))")
                if queue.startsSuspended {
                    lines.append("    \(hold).suspend()  // suspended at the start: it runs nothing until resumed")
                }
            }
        }
    }

    mutating func steps() {
        lines += ["", "    // MARK: Operations, as work items", ""]
        lines += SwiftIdentifiers.comment(
            "Each operation is a Step: a DispatchWorkItem and a DispatchGroup, entered until the work has ended "
                + "(run, or cancelled before it ran), which its dependents and the end wait for. A work item "
                + "cancelled before it ran never runs its block, but its notify still comes once its queue "
                + "reaches it: that ends the step.", indent: "    ", width: 72)
        if slotNames.contains(where: { $0 != nil }) {
            lines += SwiftIdentifiers.comment(
                "A step of a capped queue takes a slot of its semaphore on the gate, a serial queue of its own, "
                    + "before it is submitted: only the gate's one thread waits for a slot, not a worker thread "
                    + "for each block that waits.", indent: "    ", width: 72)
            lines.append("    let gate = DispatchQueue(label: \"scenario.gate\")")
        }
        for (index, op) in scenario.operations.enumerated() {
            // A barrier takes no slot: it waits for every block before it.
            let slots = op.isBarrier ? nil : slotNames[op.queue.index]
            let literal = SwiftIdentifiers.stringLiteral(op.name)
            lines.append(
                "    let \(stepNames[index]) = Step(\(literal)\(slots.map { ", slots: \($0), gate: gate" } ?? ""))")
        }
        for (index, op) in scenario.operations.enumerated() {
            let step = stepNames[index]
            let slots = op.isBarrier ? nil : slotNames[op.queue.index]
            let give = slots.map { _ in "\(step).giveSlot(); " } ?? ""
            let flagList = (op.isBarrier ? [".barrier"] : []) + (op.qos != nil ? [".enforceQoS"] : [])
            let qos = op.qos.map { "qos: .\($0.rawValue), " } ?? ""
            let flags =
                flagList.isEmpty
                ? "" : "flags: " + (flagList.count == 1 ? flagList[0] : "[\(flagList.joined(separator: ", "))]") + ", "
            let stops = op.ignoresCancel ? "" : ", shouldStop: { \(step).item.isCancelled }"
            switch op.body {
            case .work(let duration), .barrier(let duration):
                let seconds = SwiftIdentifiers.seconds(duration)
                lines.append("    \(step).item = DispatchWorkItem(\(qos)\(flags)block: {")
                lines.append("        \(step).began()")
                lines.append("        \(step).ran(simulateWork(seconds: \(seconds)\(stops)))")
                lines.append("        \(give)\(step).end()")
                lines.append("    })")
            case .blocks(let durations):
                lines.append("    \(step).item = DispatchWorkItem(\(qos)\(flags)block: {")
                lines.append("        \(step).began()")
                lines.append("        var whole = true")
                for duration in durations {
                    lines.append(
                        "        if whole { whole = simulateWork(seconds: \(SwiftIdentifiers.seconds(duration))\(stops)) }"
                    )
                }
                lines.append("        \(step).ran(whole)")
                lines.append("        \(give)\(step).end()")
                lines.append("    })")
            case .async(let duration):
                // The block returns at once; the callback ends the work.
                lines.append("    \(step).item = DispatchWorkItem(\(qos)\(flags)block: {")
                lines.append("        \(step).began()")
                if op.neverFinishes {
                    lines.append("        // Its callback never comes: its group is never left.")
                } else {
                    let stop = op.ignoresCancel ? "{ false }" : "{ \(step).item.isCancelled }"
                    lines.append(
                        "        asynchronousWork(until: .now() + \(SwiftIdentifiers.seconds(duration)), shouldStop: \(stop)) { whole in"
                    )
                    lines.append("            \(step).ran(whole)")
                    lines.append("            \(give)\(step).end()")
                    lines.append("        }")
                }
                lines.append("    })")
            case .custom(let type):
                // `opscope swift --gcd` refuses such a scenario first
                // (`unwritable`); a caller that does not ask gets an item
                // that says so and ends.
                lines.append("    \(step).item = DispatchWorkItem(\(qos)\(flags)block: {")
                lines.append(
                    "        say(\(SwiftIdentifiers.stringLiteral(op.name + ": class " + type + " is an Operation: it has no GCD form")))"
                )
                lines.append("        \(step).ran(false)")
                lines.append("        \(give)\(step).end()")
                lines.append("    })")
            }
            lines.append("    \(step).item.notify(queue: .global()) { \(step).endIfNeverRan() }")
            if let completion = op.completion {
                lines.append("    // Its completion block: once it has ended.")
                lines.append("    \(step).done.notify(queue: .global()) {")
                lines.append("        say(\(SwiftIdentifiers.stringLiteral("completion block of " + op.name)))")
                for action in completion { lines += actionCode(action).map { "        " + $0 } }
                lines.append("    }")
            }
        }
    }

    mutating func dependencies() {
        let dependents = scenario.operations.indices.filter { !scenario.operations[$0].dependencies.isEmpty }
        guard !dependents.isEmpty else { return }
        lines += ["", "    // MARK: Dependencies", ""]
        lines += SwiftIdentifiers.comment(
            "A dependent is submitted once each step it waits for has ended (submit(after:)).", indent: "    ",
            width: 72)
    }

    /// The statement that submits operation `index` to its queue: at
    /// once, or once its dependencies ended.
    func submit(_ index: Int) -> String {
        let op = scenario.operations[index]
        let queue = queueNames[op.queue.index]
        let step = stepNames[index]
        let slots = op.isBarrier ? nil : slotNames[op.queue.index]
        guard !op.dependencies.isEmpty || slots != nil else { return "\(queue).async(execute: \(step).item)" }
        let waits = op.dependencies.map { stepNames[$0.index] }.joined(separator: ", ")
        return "\(step).submit(to: \(queue)\(waits.isEmpty ? "" : ", after: [\(waits)]"))"
    }

    mutating func start() {
        lines += ["", "    // MARK: Start", ""]
        if !scenario.actions.isEmpty { lines.append("    let t0 = DispatchTime.now()") }
        for op in scenario.addedAtStart { lines.append("    " + submit(op.index)) }
    }

    mutating func timedActions() {
        guard !scenario.actions.isEmpty else { return }
        lines += ["", "    // MARK: Timed actions", ""]
        if scenario.actions.contains(where: { !$0.action.isMainThreadCall }) {
            lines.append("    let timeline = DispatchQueue(label: \"scenario.timeline\")")
        }
        for timed in scenario.actions {
            let text = ScenarioPrinter.actionText(timed.action, in: scenario)
            let at = SwiftIdentifiers.seconds(timed.time)
            let onMain = timed.action.isMainThreadCall
            lines.append("    \(onMain ? "DispatchQueue.main" : "timeline").asyncAfter(deadline: t0 + \(at)) {")
            lines.append(
                "        say(\(SwiftIdentifiers.stringLiteral("at \(ScenarioPrinter.format(timed.time)): \(text)")))")
            lines += actionCode(timed.action).map { "        " + $0 }
            lines.append("    }")
        }
    }

    func actionCode(_ action: Action) -> [String] {
        switch action {
        case .cancel(let id):
            return ["\(stepNames[id.index]).item.cancel()"]
        case .cancelAll(let queue):
            let steps = scenario.operations.indices.filter { scenario.operations[$0].queue == queue }
            return steps.map { "\(stepNames[$0]).item.cancel()" }
        case .suspend(let queue):
            return holdNames[queue.index].map { ["\($0).suspend()"] } ?? []
        case .resume(let queue):
            return holdNames[queue.index].map { ["\($0).resume()"] } ?? []
        case .setCap, .setPriority, .start:
            return ["say(\"  (left out: GCD has no counterpart)\")"]
        case .add(let id):
            return [submit(id.index)]
        case .addBatch(let ids):
            return ids.map { submit($0.index) }
        case .wait(let id):
            return ["\(stepNames[id.index]).done.wait()  // blocks the main thread until it has ended"]
        case .waitAll(let queue):
            let steps = scenario.operations.indices.filter { scenario.operations[$0].queue == queue }
            return steps.map { "\(stepNames[$0]).done.wait()" }
        }
    }

    mutating func ending() {
        let work = scenario.operations.reduce(Duration.zero) { $0 + $1.body.totalDuration }
        let lastAction = scenario.actions.last?.time ?? .zero
        let timeout = SwiftIdentifiers.seconds(lastAction + work + .seconds(2))
        lines += ["", "    // MARK: Wait for the end", ""]
        lines.append("    waitForTheSteps([\(stepNames.joined(separator: ", "))], timeout: \(timeout))")
    }
}
