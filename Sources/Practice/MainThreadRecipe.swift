import ScenarioKit
import TextKit

/// main-thread questions. Which thread calls an operation's `start()` is
/// fixed by where it is, never by timing: the main queue's operations run
/// on the main thread (its queue is `OperationQueue.main`); an operation
/// started by hand (`at TIME start OP`, in no queue) runs on the thread that
/// calls `start()`, here the main thread; every other queue's operations
/// run on threads of the pool, whoever released them. An operation of the
/// main queue cancelled before it starts never runs at all: its `start()`
/// sees the flag and finishes it without calling `main()`, so it never
/// executes, on any thread.
///
/// The cancel is certain to come first: it is an `at 0ms` action, and the
/// operation waits for one that cannot have finished by then (the one
/// started by hand later, or one on a queue that starts suspended and
/// resumes after the cancel). Each question has an operation started by
/// hand or a cancelled one of the main queue, or both, so that "the main
/// queue's operations" is never its answer.
///
/// Its runs need the main thread to serve the main queue
/// (`QuestionConfirmer`).
enum MainThreadRecipe {
    /// The main queue's name in every question.
    static let mainQueue = "ui"

    static func make(level: Int, _ r: inout SplitMix64) -> Candidate? {
        var names = NamePool(&r)
        let bg = names.queue()
        var hand = r.chance(level == 1 ? 70 : 60) ? names.op() : nil
        let cancelled = hand == nil || r.chance(50)
        var heldBack = false

        // The operations of both queues, in the order drawn, then the one
        // started by hand (written without a queue, it belongs to `bg`).
        let uiCount = r.int(in: 2...3)
        let bgCount = r.int(in: 1...(level == 1 ? 2 : 3))
        var placed = (0..<uiCount).map { _ in (names.op(), true) } + (0..<bgCount).map { _ in (names.op(), false) }
        placed = r.shuffled(placed)
        var ops: [QuestionDraft.Op] = []
        for (i, (name, onMain)) in placed.enumerated() {
            var op = QuestionDraft.Op(
                name: name, queue: onMain ? mainQueue : bg, body: .work(workLength(&r)))
            if i > 0 && r.chance(45) { op.after = [placed[r.below(i)].0] }
            ops.append(op)
        }
        // The main-queue operation cancelled before it can start waits for
        // what cannot finish by then.
        var cancels: [String] = []
        var notes: [String] = []
        if cancelled {
            let candidates = ops.indices.filter { ops[$0].queue == mainQueue }
            let i = r.pick(candidates)
            // From level 2, one of bg drawn before it (it cannot wait for
            // this one in turn), bg starting suspended; else the one started
            // by hand (drawn now if there was none).
            let earlier = ops[..<i].filter { $0.queue == bg }.map(\.name)
            let holder: String
            if level >= 2, !earlier.isEmpty, hand == nil || r.chance(50) {
                holder = r.pick(earlier)
                heldBack = true
            } else {
                let started = hand ?? names.op()
                hand = started
                holder = started
            }
            ops[i].after = [holder]
            cancels.append(ops[i].name)
            let why =
                holder == hand
                ? "\(holder), which the main thread starts by hand only later"
                : "\(holder), on \(bg), which is suspended until after the cancel"
            notes.append(
                "\(ops[i].name) is on the main queue, but it is cancelled at 0ms while it waits for \(why): a "
                    + "cancel makes it ready at once, and when the main queue starts it, its start() sees the flag "
                    + "and finishes it without calling main(). It never executes, on any thread.")
        }
        var handAt = 0
        if let hand {
            var op = QuestionDraft.Op(name: hand, queue: bg, body: .work(workLength(&r)))
            op.byHand = true
            if level >= 3 && r.chance(50) { op.body = .async(workLength(&r)) }
            ops.append(op)
            handAt = 100 * r.int(in: 1...6)
            let how =
                op.body.isAsync
                ? "its start() runs there: an asynchronous operation begins on the thread that calls start()"
                : "start() of a synchronous operation runs its main() right there, on the calling thread"
            notes.append(
                "\(hand) is in no queue: at \(QuestionDraft.time(handAt)) the main thread calls its start() itself, "
                    + "and \(how). So it runs on the main thread, though it is not on the main queue.")
        }
        let ran = ops.filter { op in
            op.byHand || (op.queue == mainQueue && !cancels.contains(op.name))
        }.map(\.name)

        var draft = QuestionDraft(title: "Threads")
        draft.queues = [
            .init(name: bg, options: [r.pick(["max 2", "max 3", "serial"])] + (heldBack ? ["suspended"] : [])),
            .init(name: mainQueue, options: ["main"]),
        ]
        draft.ops = ops
        draft.actions =
            cancels.map { QuestionDraft.Action("cancel \($0)") }
            + (heldBack ? [QuestionDraft.Action("resume \(bg)")] : [])
            + (hand.map { [QuestionDraft.Action(at: handAt, "start \($0)")] } ?? [])
        draft.question = "Which of the \(ops.count) operations run on the main thread?"
        let uiRunning = ops.filter { $0.queue == mainQueue && !cancels.contains($0.name) }.map(\.name)
        var intro = [
            "\(mainQueue) is OperationQueue.main: its operations run on the main thread, one at a time (\(Spelling.list(uiRunning)) here). "
                + "\(Spelling.possessive(bg)) operations run on threads of the pool, even those that wait for one of the main queue: "
                + "a dependency decides when an operation starts, never where."
        ]
        if heldBack {
            intro.append("\(bg) starts suspended; at 0ms the cancels come first, then it resumes.")
        }
        draft.notes = intro + notes
        let prediction = Prediction.mainThread(ran)
        draft.notes.append(QuestionDraft.answerNote(prediction.answerText))

        var concepts: Set<Concept> = [.mainThread]
        if ops.contains(where: { !$0.after.isEmpty }) { concepts.insert(.dependencies) }
        if !cancels.isEmpty { concepts.insert(.cancellation) }
        if heldBack { concepts.insert(.suspension) }
        if ops.contains(where: { $0.byHand && $0.body.isAsync }) { concepts.insert(.async) }
        return Candidate(
            draft: draft, prediction: prediction, concepts: concepts, confirmSpeed: Candidate.timeFreeSpeed)
    }
}
