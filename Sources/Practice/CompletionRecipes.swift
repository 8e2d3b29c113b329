import ScenarioKit
import TextKit

/// `completions before OP` questions. A completion block runs after its
/// operation finished, as separate work on a thread of the pool, at a time
/// only the run decides (usually after the dependents were released): so
/// against another operation's start it is a race, unless a cause orders
/// the two. Every block asked about here is ordered by one:
///
/// - its action lets OP go: it resumes the suspended queue OP waits in
///   (nothing else resumes it), or, from level 3, cancels the operation OP
///   waits for, which waits in turn for one that never finishes. The block
///   runs before OP starts, every time.
/// - its operation waits for OP, directly or through others: it cannot
///   start before OP finished, so its block runs after OP started, every
///   time.
/// - from level 3, its operation never finishes (it forgets to post
///   isFinished): its block never runs.
enum CompletionRecipes {
    static func before(level: Int, _ r: inout SplitMix64) -> Candidate? {
        var names = NamePool(&r)
        let a = names.queue()
        let b = names.queue()
        let target = names.op()
        let opener = names.op()
        let byCancel = level >= 3 && r.chance(50)
        var ops: [QuestionDraft.Op] = []
        var notes: [String] = []
        var concepts: Set<Concept> = [.completionBlocks, .dependencies]
        var queues: [QuestionDraft.Queue]
        let openerOp: QuestionDraft.Op
        var forgetful: String?
        if byCancel {
            // gate never finishes; held waits for it; target waits for held.
            let gate = names.op()
            forgetful = gate
            let held = names.op()
            queues = [.init(name: a, options: ["max 3"]), .init(name: b, options: ["serial"])]
            var gateOp = QuestionDraft.Op(name: gate, queue: a, body: .neverFinishes(workLength(&r)))
            if r.chance(60) { gateOp.completion = "" }
            ops.append(gateOp)
            ops.append(QuestionDraft.Op(name: held, queue: a, body: .work(workLength(&r)), after: [gate]))
            ops.append(QuestionDraft.Op(name: target, queue: b, body: .work(workLength(&r)), after: [held]))
            var made = QuestionDraft.Op(name: opener, queue: a, body: .work(workLength(&r)))
            made.completion = "cancel \(held)"
            openerOp = made
            concepts.formUnion([.cancellation, .async])
            notes.append(
                "\(gate) is asynchronous and never posts isFinished, so \(held), which waits for it, would never "
                    + "start, nor \(target), which waits for \(held). \(Spelling.possessive(opener)) completion block cancels \(held): "
                    + "a cancel makes it ready at once, its queue finishes it without running it, and a cancelled "
                    + "dependency counts as finished, so \(target) goes. The block runs before \(target) starts, "
                    + "every time: it is what lets it go.")
            if gateOp.completion != nil {
                notes.append(
                    "\(Spelling.possessive(gate)) completion block never runs: a completion block runs once its operation has "
                        + "finished, and \(gate) never does.")
            }
        } else {
            queues = [.init(name: a, options: ["max 2"]), .init(name: b, options: ["serial", "suspended"])]
            if r.chance(40) {
                // One before it on b, without a block: it runs first, then target.
                ops.append(QuestionDraft.Op(name: names.op(), queue: b, body: .work(workLength(&r))))
            }
            ops.append(QuestionDraft.Op(name: target, queue: b, body: .work(workLength(&r))))
            var made = QuestionDraft.Op(name: opener, queue: a, body: .work(workLength(&r)))
            made.completion = "resume \(b)"
            openerOp = made
            concepts.insert(.suspension)
            notes.append(
                "\(b) starts suspended and only \(Spelling.possessive(opener)) completion block resumes it: \(target) cannot start "
                    + "before that block has run. So the block runs before \(target) starts, every time: it is "
                    + "what lets it go.")
        }
        ops.insert(openerOp, at: r.below(ops.count + 1))
        // Blocks of operations that wait for target: after its start.
        var waiting = [target]
        for _ in 0..<r.int(in: 1...2) {
            let on = r.pick(waiting)
            var op = QuestionDraft.Op(
                name: names.op(), queue: r.pick([a, b]), body: .work(workLength(&r)), after: [on])
            op.completion = ""
            ops.append(op)
            waiting.append(op.name)
            let through = on == target ? "" : " (through \(on))"
            notes.append(
                "\(op.name) waits for \(target)\(through): it starts only after \(target) finished, so its "
                    + "completion block runs after \(target) started, every time.")
        }
        // A plain operation beside them, with no block: it asks nothing.
        if r.chance(50) {
            ops.insert(
                QuestionDraft.Op(name: names.op(), queue: a, body: .work(workLength(&r))), at: r.below(ops.count + 1))
        }
        let answer = [opener]
        var draft = QuestionDraft(title: "Completion blocks and what they let go")
        draft.queues = queues
        draft.ops = ops
        draft.kindOperands = "before \(target)"
        draft.question = "Whose completion blocks run before \(target) starts?"
        let stalls = forgetful != nil
        draft.notes =
            [
                "A completion block runs after its operation has finished, as separate work on a thread of the "
                    + "pool, at a time only the run decides: against another operation's start it is a race, unless "
                    + "something orders the two. Here something does, for every block."
            ] + notes
        if let forgetful {
            draft.notes.append("The run ends stalled: \(forgetful) never finishes.")
        }
        let prediction = Prediction.completions(answer, before: target, stalls: stalls)
        draft.notes.append(QuestionDraft.answerNote(prediction.answerText))
        return Candidate(
            draft: draft, prediction: prediction, concepts: concepts, confirmSpeed: Candidate.timeFreeSpeed)
    }
}
