import ScenarioKit

/// The concepts of the library's quizzes, by file name: what each file
/// teaches, which is more than what its text happens to contain (05 is
/// about priority although its queue is suspended only to make the order
/// certain).
public enum LibraryConcepts {
    /// File name → concepts, for `scenarios/*.ops`.
    public static let table: [String: [Concept]] = [
        "01-chain.ops": [.dependencies],
        "02-cap.ops": [.cap],
        "03-cancel.ops": [.cancellation, .dependencies],
        "04-async.ops": [.async, .cap],
        "05-priority.ops": [.priority, .suspension],
        "06-forgotten-finish.ops": [.async, .dependencies],
        "07-barrier.ops": [.barriers, .cap],
        "08-main-queue.ops": [.mainThread, .dependencies],
        "10-default-cap.ops": [.cap, .async],
        "11-serial-is-not-fifo.ops": [.priority, .dependencies, .suspension],
        "12-priority-rules.ops": [.priority, .dependencies, .suspension],
        "13-qos-becomes-priority.ops": [.qos, .priority, .cap, .suspension],
        "14-diamond.ops": [.dependencies, .async],
        "15-fan-out-fan-in.ops": [.dependencies, .cap, .async],
        "16-across-queues.ops": [.dependencies],
        "17-hundred-downloads-async.ops": [.async, .cap],
        "18-hundred-downloads-sync.ops": [.cap],
        "19-cancel-before-start.ops": [.cancellation, .dependencies],
        "20-cancel-is-a-flag.ops": [.cancellation],
        "21-cancel-all.ops": [.cancellation],
        "22-cancel-after-the-fifth.ops": [.completionBlocks, .cancellation],
        "23-suspend-resume.ops": [.suspension, .async, .cap],
        "24-async-right-and-wrong.ops": [.async, .dependencies],
        "25-block-operation.ops": [.dependencies],
        "26-completion-blocks.ops": [.completionBlocks, .cancellation, .mainThread],
        "27-main-queue-freeze.ops": [.mainThread],
        "28-live-changes.ops": [.priority, .cap, .async],
        "29-cancel-does-not-reach-the-task.ops": [.cancellation, .async],
        "30-waiting-on-the-main-thread.ops": [.mainThread, .dependencies],
        "31-main-returns-before-its-work.ops": [.async, .dependencies, .cancellation],
        "32-forgets-when-cancelled.ops": [.async, .cancellation, .dependencies],
        "33-start-by-hand.ops": [.mainThread, .dependencies],
        "34-completion-hand-off.ops": [.completionBlocks, .dependencies, .suspension],
        "35-one-call-or-one-by-one.ops": [.priority],
        "36-operation-or-gcd.ops": [.cap, .cancellation, .dependencies, .async],
    ]

    /// The concepts of library file `fileName`: the table's, or for a file
    /// it does not know (a folder of one's own), those its text uses.
    public static func concepts(of fileName: String, scenario: Scenario) -> [Concept] {
        table[fileName] ?? used(in: scenario)
    }

    /// The concepts a scenario's text uses, in `Concept` order.
    public static func used(in scenario: Scenario) -> [Concept] {
        var found = Set<Concept>()
        for op in scenario.operations {
            if !op.dependencies.isEmpty { found.insert(.dependencies) }
            if op.priority != nil { found.insert(.priority) }
            if op.qos != nil { found.insert(.qos) }
            if op.completion != nil { found.insert(.completionBlocks) }
            if op.body.isBarrier { found.insert(.barriers) }
            if op.body.isAsync { found.insert(.async) }
        }
        for queue in scenario.queues {
            if queue.isMain { found.insert(.mainThread) }
            if queue.startsSuspended { found.insert(.suspension) }
            if case .limit = queue.cap, !queue.isMain { found.insert(.cap) }
        }
        for timed in scenario.actions {
            switch timed.action {
            case .cancel, .cancelAll: found.insert(.cancellation)
            case .suspend, .resume: found.insert(.suspension)
            case .setCap: found.insert(.cap)
            case .setPriority: found.insert(.priority)
            case .add, .addBatch: break
            case .wait, .waitAll, .start: found.insert(.mainThread)
            }
        }
        return found.sorted()
    }
}
