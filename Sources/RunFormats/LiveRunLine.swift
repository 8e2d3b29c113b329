import FoundationRules
import ScenarioKit

/// What a board says to the child opscope that runs the user's classes
/// live, one line each on the child's standard input.
///
/// Operations and queues go by their index in the scenario both sides
/// read from the same file: a line names no text of the file, so it needs
/// no quoting. The child reads each line with `init?(line:scenario:)` and
/// ignores one it cannot read (it comes from opscope, but a line is
/// checked like any input: an index out of range is no line).
public enum LiveCommand: Sendable, Hashable {
    /// Build the queues and operations and start the run.
    case start
    case pause
    case resume
    /// Scenario seconds per real second; > 0 and finite.
    case speed(Double)
    /// Lesson mode on or off.
    case lesson(Bool)
    /// A key's action, numbered: the child answers `LiveReport.done` with
    /// the number once the action and what the engine did with it are
    /// written.
    case act(Int, Action)

    /// The line, without its newline.
    public var line: String {
        switch self {
        case .start: "start"
        case .pause: "pause"
        case .resume: "resume"
        case .speed(let speed): "speed \(speed)"
        case .lesson(let on): "lesson \(on ? "on" : "off")"
        case .act(let number, let action): "act \(number) \(Self.words(action))"
        }
    }

    private static func words(_ action: Action) -> String {
        switch action {
        case .cancel(let op): "cancel \(op.index)"
        case .cancelAll(let q): "cancel-all \(q.index)"
        case .suspend(let q): "suspend \(q.index)"
        case .resume(let q): "resume \(q.index)"
        case .setCap(let q, .systemDefault): "cap \(q.index) default"
        case .setCap(let q, .limit(let n)): "cap \(q.index) \(n)"
        case .setPriority(let op, let level): "priority \(op.index) \(level.rawValue)"
        case .add(let op): "add \(op.index)"
        case .addBatch(let ops): "add-batch " + ops.map { String($0.index) }.joined(separator: " ")
        case .wait(let op): "wait \(op.index)"
        case .waitAll(let q): "wait-all \(q.index)"
        case .start(let op): "start \(op.index)"
        }
    }

    /// The command of `line`, its names checked against `scenario`; nil
    /// for anything else.
    public init?(line: Substring, scenario: Scenario) {
        let words = line.split(separator: " ", omittingEmptySubsequences: false)
        guard let verb = words.first else { return nil }
        switch (verb, words.count) {
        case ("start", 1): self = .start
        case ("pause", 1): self = .pause
        case ("resume", 1): self = .resume
        case ("speed", 2):
            guard let speed = Double(words[1]), speed.isFinite, speed > 0 else { return nil }
            self = .speed(speed)
        case ("lesson", 2):
            guard words[1] == "on" || words[1] == "off" else { return nil }
            self = .lesson(words[1] == "on")
        case ("act", 3...):
            guard let number = Int(words[1]), number > 0,
                let action = Self.action(Array(words.dropFirst(2)), scenario)
            else { return nil }
            self = .act(number, action)
        default: return nil
        }
    }

    private static func action(_ words: [Substring], _ scenario: Scenario) -> Action? {
        func op(_ word: Substring) -> OperationID? {
            guard let n = Int(word), scenario.operations.indices.contains(n) else { return nil }
            return OperationID(n)
        }
        func queue(_ word: Substring) -> QueueID? {
            guard let n = Int(word), scenario.queues.indices.contains(n) else { return nil }
            return QueueID(n)
        }
        switch (words[0], words.count) {
        case ("cancel", 2): return op(words[1]).map(Action.cancel)
        case ("cancel-all", 2): return queue(words[1]).map(Action.cancelAll)
        case ("suspend", 2): return queue(words[1]).map(Action.suspend)
        case ("resume", 2): return queue(words[1]).map(Action.resume)
        case ("cap", 3):
            guard let q = queue(words[1]) else { return nil }
            if words[2] == "default" { return .setCap(q, .systemDefault) }
            guard let n = Int(words[2]), n >= 1 else { return nil }
            return .setCap(q, .limit(n))
        case ("priority", 3):
            guard let o = op(words[1]), let level = PriorityLevel(rawValue: String(words[2])) else { return nil }
            return .setPriority(o, level)
        case ("add", 2): return op(words[1]).map(Action.add)
        case ("add-batch", 2...):
            let ops = words.dropFirst().compactMap(op)
            return ops.count == words.count - 1 ? .addBatch(ops) : nil
        case ("wait", 2): return op(words[1]).map(Action.wait)
        case ("wait-all", 2): return queue(words[1]).map(Action.waitAll)
        case ("start", 2): return op(words[1]).map(Action.start)
        default: return nil
        }
    }
}

/// What the child that runs the user's classes live says to its board,
/// on the stream of its recording: a line of its own, which no line of a
/// recording begins with (those are JSON objects).
public enum LiveReport: Sendable, Hashable {
    /// The run's clock now: scenario seconds, paused, stalled.
    case clock(now: Double, paused: Bool, stalled: Bool)
    /// Action `number` was carried out (`performed`: the run took it; it
    /// takes none once ended) and everything it caused so far is written.
    case done(Int, performed: Bool)

    public static let prefix = "opscope-live "

    /// The line, without its newline.
    public var line: String {
        switch self {
        case .clock(let now, let paused, let stalled):
            "\(Self.prefix)clock \(now) \(paused ? 1 : 0) \(stalled ? 1 : 0)"
        case .done(let number, let performed): "\(Self.prefix)done \(number) \(performed ? 1 : 0)"
        }
    }

    /// The report of `line`; nil for anything else.
    public init?(line: Substring) {
        guard line.hasPrefix(Self.prefix) else { return nil }
        let words = line.dropFirst(Self.prefix.count).split(separator: " ", omittingEmptySubsequences: false)
        func flag(_ word: Substring) -> Bool? { word == "1" ? true : word == "0" ? false : nil }
        switch (words.first, words.count) {
        case ("clock", 4):
            guard let now = Double(words[1]), now.isFinite, now >= 0, let paused = flag(words[2]),
                let stalled = flag(words[3])
            else { return nil }
            self = .clock(now: now, paused: paused, stalled: stalled)
        case ("done", 3):
            guard let number = Int(words[1]), number > 0, let performed = flag(words[2]) else { return nil }
            self = .done(number, performed: performed)
        default: return nil
        }
    }
}
