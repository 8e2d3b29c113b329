import Board
import ScenarioKit
import TextKit

/// Final-state and counts questions, made of small independent groups of
/// operations ("motifs"), each with an end that no timing can change:
/// every cancel is performed at 0ms while the operation's queue is still
/// suspended (all queues start suspended and resume at 0ms after the
/// cancels), so it lands before any start; a queue resumed by a completion
/// block runs whenever that block comes; an operation that never posts
/// isFinished holds one slot of a queue with two forever.
enum OutcomeRecipes {
    enum Motif: CaseIterable {
        case cancelledDependency, cancelledDependent, cancelAllThenAdd, plain
        case forgottenFinish, completionResume, asyncChain
    }

    /// The words of a title, in the order they are named.
    static let topics = ["cancels", "dependencies", "a completion block", "asynchronous operations"]

    static func make(level: Int, kind: QuizKind, _ r: inout SplitMix64) -> Candidate? {
        var builder = OutcomeBuilder(random: &r)
        let many = kind == .counts
        var motifs: [Motif] =
            level == 2
            ? [.cancelledDependency, .cancelledDependent, .cancelAllThenAdd, .plain]
            : [.forgottenFinish, .completionResume, .cancelledDependency, .cancelAllThenAdd, .asyncChain]
        motifs = Array(r.shuffled(motifs).prefix(many ? 4 : 3))
        // Whose blocks run: one that never finishes, whose block never does.
        if kind == .completions && !motifs.contains(.forgottenFinish) { motifs[0] = .forgottenFinish }
        for motif in motifs { builder.add(motif, many: many, random: &r) }
        return builder.candidate(level: level, kind: kind, random: &r)
    }
}

/// Builds an outcome question one motif at a time.
struct OutcomeBuilder {
    private var names: NamePool
    private var queues: [QuestionDraft.Queue]
    private var ops: [QuestionDraft.Op] = []
    private var states: [String: FinalState] = [:]
    private var cancels: [String] = []
    private var additions: [String] = []
    private var resumed: [String]
    private var notes: [String] = []
    private var concepts: Set<Concept> = [.suspension]
    /// What the motifs are about, for the title.
    private var topics = Set<String>()
    /// A queue with two slots (holds an operation that never finishes) and
    /// a serial one; every motif puts its plain operations on these.
    private let wide: String
    private let narrow: String

    init(random r: inout SplitMix64) {
        names = NamePool(&r)
        wide = names.queue()
        narrow = names.queue()
        queues = [
            .init(name: wide, options: ["max 2", "suspended"]), .init(name: narrow, options: ["serial", "suspended"]),
        ]
        resumed = [wide, narrow]
    }

    private mutating func op(
        _ queue: String, _ body: QuestionDraft.Body, after: [String] = [], _ state: FinalState
    ) -> String {
        let name = names.op()
        ops.append(QuestionDraft.Op(name: name, queue: queue, body: body, after: after))
        states[name] = state
        return name
    }

    private func general(_ r: inout SplitMix64) -> String { r.chance(50) ? wide : narrow }

    mutating func add(_ motif: OutcomeRecipes.Motif, many: Bool, random r: inout SplitMix64) {
        switch motif {
        case .cancelledDependency, .cancelledDependent, .cancelAllThenAdd: topics.insert("cancels")
        case .completionResume: topics.insert("a completion block")
        case .forgottenFinish, .asyncChain: topics.insert("asynchronous operations")
        case .plain: topics.insert("dependencies")
        }
        switch motif {
        case .cancelledDependency:
            let x = op(general(&r), .work(workLength(&r)), .skipped)
            let y = op(general(&r), .work(workLength(&r)), after: [x], .finished)
            cancels.append(x)
            concepts.formUnion([.cancellation, .dependencies])
            notes.append(
                "\(x) is cancelled at 0ms, before its queue resumes: it finishes without ever running (skipped). "
                    + "A cancelled dependency counts as finished, so \(y), which waits for it, runs and finishes.")
        case .cancelledDependent:
            let x = op(general(&r), .work(workLength(&r)), .finished)
            let y = op(general(&r), .work(workLength(&r)), after: [x], .skipped)
            cancels.append(y)
            concepts.formUnion([.cancellation, .dependencies])
            notes.append(
                "\(y) is cancelled at 0ms while it waits for \(x): a cancel makes it ready at once, and its queue "
                    + "finishes it without running it (skipped). \(x) is not touched and finishes.")
        case .cancelAllThenAdd:
            let queue = names.queue()
            queues.append(.init(name: queue, options: ["max 2", "suspended"]))
            let cancelled = (0..<(many ? 4 : 2)).map { _ in op(queue, .work(workLength(&r)), .skipped) }
            let late = op(queue, .work(workLength(&r)), .finished)
            ops[ops.count - 1].addedLater = true
            additions += ["cancel-all \(queue)", "add \(late)"]
            resumed.append(queue)
            concepts.insert(.cancellation)
            notes.append(
                "cancel-all \(queue) at 0ms cancels what is in \(queue) at that moment: \(Spelling.list(cancelled)) "
                    + "finish without running when it resumes (skipped). \(late) is added just after the cancel-all, "
                    + "so nothing cancels it and it finishes.")
        case .plain:
            let first = op(general(&r), .work(workLength(&r)), .finished)
            let second = op(general(&r), .work(workLength(&r)), after: [first], .finished)
            concepts.insert(.dependencies)
            notes.append("\(first) and then \(second), which waits for it, run and finish: nothing cancels them.")
        case .forgottenFinish:
            let broken = op(wide, .neverFinishes(workLength(&r)), .stuck)
            let waiting = op(general(&r), .work(workLength(&r)), after: [broken], .stuck)
            concepts.formUnion([.async, .dependencies])
            notes.append(
                "\(broken) is asynchronous and never posts isFinished: it stays executing forever (stuck), holding "
                    + "one of \(Spelling.possessive(wide)) two slots, and \(waiting), which waits for it, never becomes ready (stuck). "
                    + "The run stalls.")
        case .completionResume:
            let queue = names.queue()
            queues.append(.init(name: queue, options: ["serial", "suspended"]))
            let runs = op(queue, .work(workLength(&r)), .finished)
            let cancelled = r.chance(60) ? op(queue, .work(workLength(&r)), .skipped) : nil
            let opener = op(general(&r), .work(workLength(&r)), .finished)
            ops[ops.count - 1].completion = "resume \(queue)"
            if let cancelled { cancels.append(cancelled) }
            concepts.formUnion([.completionBlocks] + (cancelled == nil ? [] : [.cancellation]))
            var note =
                "\(queue) starts suspended and only \(Spelling.possessive(opener)) completion block resumes it, once \(opener) has "
                + "finished: then \(runs) runs and finishes"
            if let cancelled {
                note +=
                    "; \(cancelled) was cancelled at 0ms, while \(queue) was still suspended, so it finishes "
                    + "without running (skipped)"
            }
            notes.append(note + ".")
        case .asyncChain:
            let first = op(general(&r), .async(workLength(&r)), .finished)
            let second = op(general(&r), .work(workLength(&r)), after: [first], .finished)
            concepts.formUnion([.async, .dependencies])
            notes.append(
                "\(first) is asynchronous and posts isFinished when its work is done, which releases \(second): "
                    + "both finish.")
        }
    }

    /// The question, its operations in a drawn order (the order they are
    /// added changes no end here).
    func candidate(level: Int, kind: QuizKind, random r: inout SplitMix64) -> Candidate? {
        let named = OutcomeRecipes.topics.filter(topics.contains)
        var draft = QuestionDraft(title: "How they end: " + Spelling.list(named))
        // A general queue no motif used is left out (check would warn).
        let used = Set(ops.map(\.queue))
        draft.queues = queues.filter { used.contains($0.name) }
        var ops = r.shuffled(ops)
        var blocks: [String] = []
        if kind == .completions {
            for i in ops.indices where ops[i].completion == nil && r.chance(55) { ops[i].completion = "" }
            let asked = ops.filter { $0.completion != nil }.map(\.name)
            let ran = asked.filter { states[$0] != .stuck }
            // Not none, not all: one that runs and one that never does.
            guard !ran.isEmpty, ran.count < asked.count else { return nil }
            blocks = ran
            draft.title = "Completion blocks: " + Spelling.list(named)
        }
        draft.ops = ops
        draft.actions =
            (cancels.map { "cancel \($0)" } + additions + resumed.filter(used.contains).map { "resume \($0)" })
            .map { QuestionDraft.Action($0) }
        let finals = ops.map { (name: $0.name, state: states[$0.name]!) }
        var counts: [FinalState: Int] = [:]
        for (_, state) in finals { counts[state, default: 0] += 1 }
        // A blind answer (all finished, all cancelled) must not pass.
        guard counts.count > 1 else { return nil }
        let prediction: Prediction
        switch kind {
        case .counts:
            prediction = .counts(counts, stalls: counts[.stuck] != nil)
            draft.question = "How many of the \(ops.count) operations end each way?"
        case .completions:
            prediction = .completions(blocks, before: nil, stalls: counts[.stuck] != nil)
            draft.question = "Whose completion blocks run?"
        default:
            prediction = .finalState(finals, stalls: counts[.stuck] != nil)
            draft.question = "How does each of the \(ops.count) operations end?"
        }
        draft.kind = kind
        draft.notes =
            [
                "Every queue here starts suspended. At 0ms the cancels come first, then the resumes: every cancel "
                    + "lands before anything can start."
            ] + notes
        if kind == .completions {
            let never = ops.filter { $0.completion != nil && states[$0.name] == .stuck }.map(\.name)
            draft.notes.append(
                "A completion block runs once its operation has finished, cancelled or not (even one that never "
                    + "ran), and never for one that does not finish: \(Spelling.list(blocks)) "
                    + (blocks.count == 1 ? "finishes" : "finish") + ", \(Spelling.list(never)) never "
                    + (never.count == 1 ? "does" : "do") + ".")
        }
        draft.notes.append(QuestionDraft.answerNote(prediction.answerText))
        let asked = kind == .completions ? concepts.union([.completionBlocks]) : concepts
        return Candidate(
            draft: draft, prediction: prediction, concepts: asked, confirmSpeed: Candidate.timeFreeSpeed)
    }
}
