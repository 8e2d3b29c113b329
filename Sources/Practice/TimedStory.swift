import Board
import ScenarioKit
import TextKit

/// The notes of a timed question: the rule that makes nominal moments
/// enough, then each operation's life in one sentence (when it starts and
/// why then, how it ends), then what each action did.
struct TimedStory {
    let plan: TimedPlan
    let run: TimedModel.Run

    private var model: TimedModel { plan.model }
    private func name(_ i: Int) -> String { model.ops[i].name }
    private func queueName(_ i: Int) -> String { model.queues[model.ops[i].queue].name }
    private func at(_ ms: Int) -> String { QuestionDraft.time(ms) }

    static let rule =
        "Every operation here is asynchronous: its start() returns at once and it holds no worker thread, so a queue "
        + "starts what it dispatches at once, whatever the number of cores. Every length and every action is a "
        + "multiple of \(QuestionDraft.time(TimedModel.grid)), so each thing happens at such a multiple, give or take "
        + "the few milliseconds a start or a timer takes."

    var notes: [String] {
        var notes = [Self.rule]
        notes += model.queues.indices.map(queueSentence)
        notes += model.ops.indices.map(sentence)
        for (index, action) in model.actions.enumerated() {
            if let text = actionSentence(action, acted: run.acted[index]) { notes.append(text) }
        }
        return notes
    }

    private func queueSentence(_ q: Int) -> String {
        let queue = model.queues[q]
        let changes = model.actions.contains { if case .setCap(q, _) = $0.act { true } else { false } }
        var text =
            "\(queue.name) runs at most \(queue.cap) at a time" + (queue.cap == 1 ? " (serial)" : "")
            + (changes ? " at first" : "")
        if plan.startsSuspended.contains(q) { text += "; it starts suspended" }
        return text + ". When a slot frees, it starts the ready operation with the highest queuePriority, the one "
            + "added first among equals."
    }

    /// `fetch (net, 1.6s) starts at 0ms, as it is added, and finishes at 1.6s.`
    private func sentence(_ i: Int) -> String {
        let op = model.ops[i]
        let life = run.lives[i]
        var text = "\(name(i)) (\(queueName(i)), \(at(op.length)))"
        if op.addedLater, let added = life.added { text += " is added at \(at(added)) and" }
        if let started = life.started {
            text += " starts at \(at(started))\(why(i)), and " + ending(i, started: started)
        } else {
            text += " " + neverStarted(i)
        }
        return text + "."
    }

    /// Why `i` was dispatched when it was: `, as soon as fetch finished`.
    private func why(_ i: Int) -> String {
        let life = run.lives[i]
        guard let cause = life.cause, let dispatched = life.dispatched else { return "" }
        let waited = (life.ready ?? dispatched) < dispatched
        let slot = "a slot of \(queueName(i))"
        switch cause {
        case .added:
            return ", as it is added"
        case .released(let d):
            let waits = model.ops[i].after.count > 1 ? ", the last it waits for," : ""
            return ", as soon as \(name(d))\(waits) finished"
        case .slotFreed(let d):
            if !waited {
                return model.ops[i].after.contains(d)
                    ? ", as soon as \(name(d)) finished (its dependency, and the slot it held)"
                    : ", as soon as \(name(d)) finished"
            }
            return ": it is ready from \(at(life.ready!)) but waits for \(slot) until \(name(d)) ends"
        case .resumed:
            return waited ? ": ready from \(at(life.ready!)), it waits while \(queueName(i)) is suspended" : ""
        case .capRaised:
            return ": ready from \(at(life.ready!)), it waits for \(slot) until the cap is raised"
        case .cancelled:
            return ""
        }
    }

    private func ending(_ i: Int, started: Int) -> String {
        let op = model.ops[i]
        let life = run.lives[i]
        if let cancelled = life.cancelled {
            let caught = "is cancelled at \(at(cancelled)) while it runs"
            if let finished = life.finished {
                if op.ignoresCancel {
                    return "\(caught); it ignores the flag (ignores-cancel), runs to its end and finishes at "
                        + "\(at(finished)), cancelled"
                }
                let forgetful =
                    op.ending == .neverIfCancelled
                    ? " (it forgets isFinished only when cancelled before it starts, and it had started)" : ""
                return "\(caught): an asynchronous operation that looks at isCancelled finishes at once, "
                    + "cancelled\(forgetful)"
            }
            return "\(caught), but it never posts isFinished: it stays executing (stuck)"
        }
        guard let finished = life.finished else {
            return "never posts isFinished (never-finishes): it stays executing for good, holding its slot (stuck)"
        }
        return "finishes at \(at(finished))"
    }

    private func neverStarted(_ i: Int) -> String {
        let life = run.lives[i]
        let op = model.ops[i]
        if let cancelled = life.cancelled {
            let before = "is cancelled at \(at(cancelled)) before it starts: it is ready at once"
            if let stranded = life.stranded {
                return "\(before), and when \(queueName(i)) dispatches it (at \(at(stranded))) its start() sees "
                    + "the flag and returns without posting isFinished (never-finishes if-cancelled): its queue "
                    + "counts it as running for good, so it sits in Executing and holds a slot. It was cancelled "
                    + "before it started (skipped), and it never finishes"
            }
            if let finished = life.finished {
                let now = finished == cancelled ? "at once" : "at \(at(finished))"
                return "\(before), and \(queueName(i)) dispatches it \(now): its start() sees the flag and "
                    + "finishes it without running it (skipped)"
            }
            return "\(before), but \(queueName(i)) never has a slot for it again: cancelled before it started "
                + "(skipped), it never finishes"
        }
        let blockers = op.after.filter { run.lives[$0].finished == nil }
        if !blockers.isEmpty {
            return "waits for \(Spelling.list(blockers.map(name))), which never "
                + (blockers.count == 1 ? "finishes" : "finish") + ": it never becomes ready (stuck)"
        }
        return "is ready, but \(queueName(i)) never has a slot for it: the operations that never finish hold them "
            + "(stuck)"
    }

    private func actionSentence(_ action: TimedModel.Action, acted: Bool) -> String? {
        let when = "At \(at(action.at))"
        switch action.act {
        case .cancel(let i):
            guard !acted else { return nil }
            let life = run.lives[i]
            if let finished = life.finished, finished < action.at {
                return "\(when) the cancel of \(name(i)) comes after it finished: it changes nothing."
            }
            return "\(when) the cancel of \(name(i)) changes nothing."
        case .suspend(let q):
            return "\(when) \(model.queues[q].name) is suspended: what it runs goes on, and nothing more of it "
                + "starts until it resumes."
        case .resume(let q):
            return "\(when) \(model.queues[q].name) resumes: it starts what is ready, up to its cap."
        case .setCap(let q, let n):
            return "\(when) the cap of \(model.queues[q].name) becomes \(n): a higher cap lets it start more at "
                + "once; a lower one stops nothing that runs, it only starts nothing more until fewer than \(n) run."
        case .add:
            return nil
        }
    }

    /// `At 2.4s: ready: parse; executing: fetch and scan (together, each on
    /// its own queue); finished: log.`
    func board(at moment: Int) -> String {
        var parts: [String] = []
        for column in Phase.columns {
            let names = model.ops.indices.filter { run.lives[$0].column(at: moment) == column }.map(name)
            guard !names.isEmpty else { continue }
            parts.append("\(column.rawValue): \(Spelling.list(names))")
        }
        let executing = model.ops.indices.filter { run.lives[$0].column(at: moment) == .executing }
        var text =
            "At \(at(moment)), nothing happens within \(at(TimedModel.grid)) either side; "
            + parts.joined(separator: "; ")
        if executing.count > 1 { text += " (\(Spelling.list(executing.map(name))) execute together)" }
        let notAdded = model.ops.indices.filter { run.lives[$0].column(at: moment) == nil }.map(name)
        if !notAdded.isEmpty { text += "; \(Spelling.list(notAdded)) not added yet, in no column" }
        return text + "."
    }
}
