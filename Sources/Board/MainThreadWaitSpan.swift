import RunEvents
import ScenarioKit
import TextKit

/// One wait of the main thread as the run observed it: the main thread's
/// own announcements as it called Foundation's wait and as the wait
/// returned (scenario seconds), and the `at` line that asked for it.
/// Never derived: how long is the difference of the two observed moments,
/// or, for a wait that never returned, from its start to the run's end.
public struct MainThreadWaitSpan: Sendable, Hashable {
    public var action: Action
    /// When the main thread called the wait (its `wait … started` event).
    public var began: Double
    /// When the wait returned; nil: it never did.
    public var returned: Double?
    /// The `at` line that asked for it (an index into `Scenario.actions`),
    /// when the stream says.
    public var actionIndex: Int?

    public init(action: Action, began: Double, returned: Double? = nil, actionIndex: Int? = nil) {
        self.action = action
        self.began = began
        self.returned = returned
        self.actionIndex = actionIndex
    }

    /// The blocks worth a report: longer than this (scenario seconds).
    /// 100 ms is where a user sees an interface stop answering.
    public static let reportThreshold = 0.1

    /// How long the main thread was blocked, in scenario seconds: to its
    /// return, or to `runEnd` for a wait that never returned. From the
    /// moments to the millisecond, as the trace prints them (so that the
    /// two printed moments give it, and a recording read back gives the
    /// same).
    public func seconds(until runEnd: Double) -> Double {
        func printed(_ t: Double) -> Double { t.isFinite && t > 0 ? (t * 1000).rounded() / 1000 : 0 }
        return max(0, printed(returned ?? runEnd) - printed(began))
    }

    /// What the main thread waited for: `export`, `every operation of files`.
    public func target(in scenario: Scenario) -> String {
        switch action {
        case .wait(let op): scenario.opName(op)
        case .waitAll(let q): "every operation of \(scenario.queueName(q))"
        default: ScenarioPrinter.actionText(action, in: scenario)
        }
    }

    /// `'at 100ms wait export', line 10`; nil when the stream does not say.
    public func source(in scenario: Scenario) -> String? {
        guard let i = actionIndex, scenario.actions.indices.contains(i) else { return nil }
        let timed = scenario.actions[i]
        let text = ScenarioPrinter.actionText(timed.action, in: scenario)
        return "'at \(Spelling.duration(timed.time)) \(text)', line \(timed.location.line)"
    }

    /// `blocked 1.705s from 0.100s waiting for export
    /// (export.waitUntilFinished(), 'at 100ms wait export', line 10)`, or
    /// for one that never returned `blocked from 1.300s and never returned
    /// (0.700s until the run ended) waiting for badge (…)`.
    public func text(in scenario: Scenario, runEnd: Double) -> String {
        let call = EventFormatter.waitCall(action, in: scenario)
        let cause =
            "waiting for \(target(in: scenario)) (\([call, source(in: scenario)].compactMap { $0 }.joined(separator: ", ")))"
        guard returned != nil else {
            let lasted = Spelling.duration(seconds: seconds(until: runEnd))
            return "blocked from \(Spelling.seconds(began)) and never returned (\(lasted) until the run ended) \(cause)"
        }
        return "blocked \(Spelling.duration(seconds: seconds(until: runEnd))) from \(Spelling.seconds(began)) \(cause)"
    }

    /// The report after a run: one line per block longer than
    /// `reportThreshold`, under a heading; empty when there is none.
    public static func reportLines(_ blocks: [MainThreadWaitSpan], in scenario: Scenario, runEnd: Double) -> [String] {
        let long = blocks.filter { $0.seconds(until: runEnd) > reportThreshold }
        guard !long.isEmpty else { return [] }
        let limit = Spelling.duration(seconds: reportThreshold)
        return ["main thread blocked longer than \(limit) (\(Spelling.count(long.count, "time"))):"]
            + long.map { "  " + $0.text(in: scenario, runEnd: runEnd) }
    }
}
