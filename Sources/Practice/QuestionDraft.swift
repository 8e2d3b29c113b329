import FoundationRules
import ScenarioKit
import TextKit

/// A generated scenario while it is being made: queues, operations in the
/// order they are added, the timed actions, the notes that explain the
/// answer and the quiz, written out as an ordinary scenario file.
struct QuestionDraft: Sendable {
    /// The last note of a generated question: `The answer: fetch, save.`
    static func answerNote(_ answer: String) -> String { "The answer: \(answer)." }

    struct Queue: Sendable {
        var name: String
        /// The words after the name: `serial suspended`, `max 2 suspended`.
        var options: [String]
    }

    /// What an operation does: `work`, `async` (and one that forgets to
    /// post isFinished, always or only when cancelled before it starts), or
    /// an instant barrier. Milliseconds of scenario time.
    enum Body: Sendable, Hashable {
        case work(Int)
        case async(Int)
        case neverFinishes(Int)
        case forgetsIfCancelled(Int)
        case barrier

        var isBarrier: Bool { self == .barrier }
        var isAsync: Bool {
            switch self {
            case .async, .neverFinishes, .forgetsIfCancelled: true
            case .work, .barrier: false
            }
        }
    }

    /// An `at TIME ACTION` line: milliseconds of scenario time, and the
    /// action as the language writes it (`resume lane`).
    struct Action: Sendable {
        var at: Int
        var text: String

        init(at: Int = 0, _ text: String) {
            self.at = at
            self.text = text
        }
    }

    struct Op: Sendable {
        var name: String
        var queue: String
        var body: Body
        var after: [String] = []
        var priority: PriorityLevel?
        var qos: QoSLevel?
        /// nil: no completion block; otherwise its action (`resume lane`).
        var completion: String?
        /// Added by an `at TIME add` action (among `actions`), not at the start.
        var addedLater = false
        /// `ignores-cancel`: its work never looks at isCancelled.
        var ignoresCancel = false
        /// In no queue: the main thread calls its start() (an `at TIME
        /// start` action). Written without `on`, so it belongs to the first
        /// queue declared (never the main queue), as the language wants.
        var byHand = false
    }

    var title: String
    /// Comment lines at the top of the file (without `#`).
    var header: [String] = []
    /// Shown after the answer: they explain it.
    var notes: [String] = []
    var queues: [Queue] = []
    var ops: [Op] = []
    /// Timed actions, in the order performed (times never decrease).
    var actions: [Action] = []
    var question = ""
    var kind: QuizKind = .startOrder
    /// What follows the kind on the quiz line (`before parse`, `at 2.4s`).
    var kindOperands = ""

    func op(_ name: String) -> Op? { ops.first { $0.name == name } }

    /// The file's text. Operations are aligned on their names; the actions
    /// come in the order performed.
    func text() -> String {
        var lines = header.map { "# " + $0 }
        lines.append("title \(quoted(title))")
        lines += notes.map { "note \(quoted($0))" }
        lines.append("")
        for queue in queues {
            lines.append((["queue", queue.name] + queue.options).joined(separator: " "))
        }
        lines.append("")
        let width = ops.map(\.name.count).max() ?? 0
        for op in ops {
            lines.append(line(op, width: width))
        }
        if !actions.isEmpty {
            lines.append("")
            lines += actions.map { "at \(Self.time($0.at)) \($0.text)" }
        }
        lines.append("")
        let operands = kindOperands.isEmpty ? "" : " " + kindOperands
        lines.append("quiz \(quoted(question)) answer \(kind.rawValue)\(operands)")
        return lines.joined(separator: "\n") + "\n"
    }

    private func line(_ op: Op, width: Int) -> String {
        let name = op.name.padding(toLength: width, withPad: " ", startingAt: 0)
        if op.body.isBarrier { return "barrier \(name) on \(op.queue)" }
        var parts = ["op", name] + (op.byHand ? [] : ["on", op.queue])
        switch op.body {
        case .work(let ms): parts += ["work", Self.time(ms)]
        case .async(let ms): parts += ["async", Self.time(ms)]
        case .neverFinishes(let ms): parts += ["async", Self.time(ms), "never-finishes"]
        case .forgetsIfCancelled(let ms): parts += ["async", Self.time(ms), "never-finishes", "if-cancelled"]
        case .barrier: break
        }
        if op.ignoresCancel { parts.append("ignores-cancel") }
        if !op.after.isEmpty { parts += ["after", op.after.joined(separator: ", ")] }
        if let priority = op.priority { parts += ["priority", priority.rawValue] }
        if let qos = op.qos { parts += ["qos", qos.rawValue] }
        if let completion = op.completion { parts += ["completion"] + (completion.isEmpty ? [] : [completion]) }
        return parts.joined(separator: " ")
    }

    /// A length or a moment of scenario time as the language spells it:
    /// `250ms`, `1.6s`.
    static func time(_ ms: Int) -> String { Spelling.duration(.milliseconds(ms)) }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Names for generated queues and operations: words a program would use,
/// drawn without repeats.
struct NamePool {
    static let operations = [
        "fetch", "parse", "decode", "resize", "upload", "save", "index", "render", "thumbs", "log", "sync",
        "compress", "encrypt", "verify", "merge", "notify", "cache", "login", "prefetch", "backup", "scan",
        "report", "archive", "clean", "hash", "crop", "filter", "export", "import", "tag", "sort", "plot",
        "audit", "ping", "stamp", "mail", "print", "zip", "load", "warm",
    ]
    static let queues = ["net", "disk", "cpu", "io", "lane", "side", "images", "db", "files", "jobs"]

    private var ops: [String]
    private var queueNames: [String]

    init(_ random: inout SplitMix64) {
        ops = random.shuffled(Self.operations)
        queueNames = random.shuffled(Self.queues)
    }

    mutating func op() -> String { ops.removeLast() }
    mutating func queue() -> String { queueNames.removeLast() }
}
