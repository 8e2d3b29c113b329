import ScenarioKit

/// A generated scenario while it is being made: queues, operations in the
/// order they are added, the actions of time 0, the notes that explain the
/// answer and the quiz, written out as an ordinary scenario file.
struct QuestionDraft: Sendable {
    struct Queue: Sendable {
        var name: String
        /// The words after the name: `serial suspended`, `max 2 suspended`.
        var options: [String]
    }

    /// What an operation does: `work`, `async` (and one that forgets to
    /// post isFinished), or an instant barrier. Milliseconds of scenario time.
    enum Body: Sendable, Hashable {
        case work(Int)
        case async(Int)
        case neverFinishes(Int)
        case barrier

        var isBarrier: Bool { self == .barrier }
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
        /// Added by an `at 0ms add` action (among `actions`), not at the start.
        var addedLater = false
    }

    var title: String
    /// Comment lines at the top of the file (without `#`).
    var header: [String] = []
    /// Shown after the answer: they explain it.
    var notes: [String] = []
    var queues: [Queue] = []
    var ops: [Op] = []
    /// Actions at 0ms, in the order performed (`resume lane`).
    var actions: [String] = []
    var question = ""
    var kind: QuizKind = .startOrder

    func op(_ name: String) -> Op? { ops.first { $0.name == name } }

    /// The file's text. Operations are aligned on their names; every
    /// action is at 0ms, in order.
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
            lines += actions.map { "at 0ms " + $0 }
        }
        lines.append("")
        lines.append("quiz \(quoted(question)) answer \(kind.rawValue)")
        return lines.joined(separator: "\n") + "\n"
    }

    private func line(_ op: Op, width: Int) -> String {
        let name = op.name.padding(toLength: width, withPad: " ", startingAt: 0)
        if op.body.isBarrier { return "barrier \(name) on \(op.queue)" }
        var parts = ["op", name, "on", op.queue]
        switch op.body {
        case .work(let ms): parts += ["work", "\(ms)ms"]
        case .async(let ms): parts += ["async", "\(ms)ms"]
        case .neverFinishes(let ms): parts += ["async", "\(ms)ms", "never-finishes"]
        case .barrier: break
        }
        if !op.after.isEmpty { parts += ["after", op.after.joined(separator: ", ")] }
        if let priority = op.priority { parts += ["priority", priority.rawValue] }
        if let qos = op.qos { parts += ["qos", qos.rawValue] }
        if let completion = op.completion { parts += ["completion"] + (completion.isEmpty ? [] : [completion]) }
        return parts.joined(separator: " ")
    }

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
