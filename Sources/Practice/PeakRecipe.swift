import ScenarioKit
import TextKit

/// Peak questions: queues of asynchronous operations, all of one length,
/// that start suspended and resume at 0ms (after a cap change and the
/// cancels, if any). An asynchronous operation's `start()` returns at once
/// and it holds no worker thread while in flight, so a queue fills its cap
/// at once whatever the number of cores; the operations dispatched
/// together start within milliseconds and are in flight together for
/// their whole length. A barrier or a dependency splits them into groups
/// that are never in flight together. The one assumption about time: a
/// few milliseconds between those starts against `length` (150 ms of real
/// time at the confirming speed, 300 ms at `quiz`'s default ×4).
enum PeakRecipe {
    /// Every operation's length, milliseconds of scenario time.
    static let length = 1200
    static let confirmSpeed = 8.0

    enum Shape: CaseIterable { case flat, barrier, fanOut }

    static func level3(_ r: inout SplitMix64) -> Candidate? {
        var names = NamePool(&r)
        var draft = QuestionDraft(title: "Asynchronous operations, caps and barriers")
        var changes: [String] = []
        var cancels: [String] = []
        var answer: [(queue: String, count: Int)] = []
        var concepts: Set<Concept> = [.async, .cap, .suspension]
        var notes: [String] = []
        var declaredIsAnswer = true
        for _ in 0..<(r.chance(60) ? 2 : 1) {
            let queue = names.queue()
            let declared = r.chance(15) ? 1 : r.int(in: 2...4)
            draft.queues.append(
                .init(name: queue, options: [declared == 1 ? "serial" : "max \(declared)", "suspended"]))
            var cap = declared
            var about = "\(queue) is created with " + (declared == 1 ? "a cap of 1 (serial)" : "max \(declared)")
            if r.chance(40) {
                cap = r.pick(Array((1...4).filter { $0 != declared }))
                changes.append("max \(queue) \(cap)")
                about += ", set to \(cap) at 0ms before it resumes"
            }
            let async = QuestionDraft.Body.async(length)
            func add(_ after: [String] = []) -> String {
                let name = names.op()
                draft.ops.append(QuestionDraft.Op(name: name, queue: queue, body: async, after: after))
                return name
            }
            var peak: Int
            switch r.pick(Shape.allCases) {
            case .flat:
                let live = r.int(in: 2...min(6, 2 * cap))
                let cancelled = r.chance(40) ? r.int(in: 1...2) : 0
                var made = (0..<(live + cancelled)).map { _ in add() }
                made = r.shuffled(made)
                cancels += made.prefix(cancelled)
                peak = min(cap, live)
                about += ": \(live + cancelled) operations"
                if cancelled > 0 {
                    concepts.insert(.cancellation)
                    about += ", \(Spelling.list(Array(made.prefix(cancelled)))) cancelled at 0ms (they never execute)"
                }
                about += "; \(live) to run, at most \(cap) at a time → \(peak)"
            case .barrier:
                let before = r.int(in: 1...min(3, cap))
                let after = r.int(in: 1...min(3, cap))
                for _ in 0..<before { _ = add() }
                let barrier = names.op()
                draft.ops.append(QuestionDraft.Op(name: barrier, queue: queue, body: .barrier))
                for _ in 0..<after { _ = add() }
                peak = max(min(cap, before), min(cap, after))
                concepts.insert(.barriers)
                about +=
                    ": the barrier \(barrier) splits it. The \(before) added before it finish before it runs, and the "
                    + "\(after) added after it wait for it: never in flight together, and the barrier runs alone → "
                    + "\(peak)"
            case .fanOut:
                let root = add()
                let count = r.int(in: 2...max(2, min(4, cap)))
                for _ in 0..<count { _ = add([root]) }
                peak = min(cap, count)
                concepts.insert(.dependencies)
                about +=
                    ": \(root) runs alone first; the \(count) that wait for it are released together when it "
                    + "finishes, at most \(cap) at a time → \(peak)"
            }
            if peak != declared { declaredIsAnswer = false }
            answer.append((queue, peak))
            notes.append(about + ".")
        }
        let counts = draft.queues.map { q in draft.ops.filter { $0.queue == q.name && !$0.body.isBarrier }.count }
        // Not passable blind: one at a time, all at once, or the declared caps.
        guard !answer.allSatisfy({ $0.count == 1 }), answer.map(\.count) != counts, !declaredIsAnswer else {
            return nil
        }
        draft.kind = .peak
        draft.actions = (changes + cancels.map { "cancel \($0)" } + draft.queues.map { "resume \($0.name)" })
            .map { QuestionDraft.Action($0) }
        draft.question =
            draft.queues.count == 1
            ? "How many of \(Spelling.possessive(draft.queues[0].name)) operations execute at once, at most?"
            : "How many operations of each queue execute at once, at most?"
        draft.notes =
            [
                "Every operation here is asynchronous: its start() returns at once and it holds no worker thread "
                    + "while in flight, so a queue fills its cap at once, whatever the number of cores. All last "
                    + "\(Spelling.duration(seconds: Double(length) / 1000)), so those started together are in "
                    + "flight together."
            ] + notes
        let prediction = Prediction.peak(answer)
        draft.notes.append(QuestionDraft.answerNote(prediction.answerText))
        return Candidate(draft: draft, prediction: prediction, concepts: concepts, confirmSpeed: confirmSpeed)
    }
}
