import Board
import Foundation
import RunEvents
import ScenarioKit
import Synchronization
import TextKit

/// The run before the one shown (kept when `r` or a save of a watched file
/// started a new one), and the shown run compared with it (`d`): the text
/// of the diff overlay.
///
/// Nothing is compared until the overlay asks: keeping the run before
/// costs its events as the history keeps them (32 bytes each), no more.
/// Each run's steps (`RunSteps`, an `EventReader`) are gathered the first
/// time the overlay shows, and the shown run's are then brought up to
/// date with only the events that came since; the text is made again only
/// when the shown run has more events or the overlay another width.
///
/// One per shown run: a new run makes a new one over the same run before.
/// Locked: frames are drawn on the main thread, but `FrameInput` and the
/// session are values that may be copied.
final class RunComparison: Sendable {
    /// The run before, as it was when it was left.
    struct Before: Sendable {
        var scenario: Scenario
        var events: BoardHistory.Events
        var file: String
        /// How the overlay names it: `the run before r`.
        var label: String
    }

    let before: Before

    private struct Kept {
        var beforeSteps: RunSteps?
        var shownSteps: RunSteps?
        /// The two files compared, once: a frame of a run of 100,000
        /// operations must not print both files again.
        var files: ScenarioChanges?
        var text: (key: [Int], lines: [String])?
    }

    private let kept = Mutex(Kept())

    init(before: Before) {
        self.before = before
    }

    /// The diff of `history` (the run shown, of `scenario`) against the run
    /// before: its summary first (`the runs agree: …`), whether the run
    /// shown is still going, then the whole report as `opscope diff`
    /// writes it.
    func lines(scenario: Scenario, file: String, history: BoardHistory, speed: Double, ended: Bool) -> [String] {
        let key = [history.count, ended ? 1 : 0, Int((speed * 1000).rounded())]
        if let text = kept.withLock({ $0.text }), text.key == key { return text.lines }
        var steps = kept.withLock { kept in
            (kept.beforeSteps ?? RunSteps(scenario: before.scenario, events: before.events), kept.shownSteps)
        }
        var shown = steps.1 ?? RunSteps(scenario: scenario)
        for event in history.events[shown.eventCount..<max(shown.eventCount, history.count)] {
            shown.record(event)
        }
        steps.1 = shown
        let files = kept.withLock { $0.files } ?? ScenarioChanges(from: before.scenario, to: scenario)
        let diff = RunDiff(steps.0, shown, tolerance: RunDiff.Tolerance.standard.atSpeed(speed), files: files)
        let report = RunDiffText.render(
            diff, a: RunLabel(path: before.file, source: .session(before.label)),
            b: RunLabel(path: file, source: .session("this run")))
        var body = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while body.last?.isEmpty == true { body.removeLast() }
        let summary = RunDiffText.summary(diff)
        if body.last == summary { body.removeLast() }
        while body.last?.isEmpty == true { body.removeLast() }
        var lines = [summary]
        if !ended {
            lines.append("(this run has not ended: it is compared as far as it has gone, and the text follows it)")
        }
        lines += [""] + body
        kept.withLock { kept in
            kept.beforeSteps = steps.0
            kept.shownSteps = steps.1
            kept.files = files
            kept.text = (key, lines)
        }
        return lines
    }
}

/// A save of the watched file that has errors: its diagnostics, as the
/// overlay shows them, made again only for another width.
final class FileProblems: Sendable {
    let result: ParseResult
    let file: SourceFile
    private let kept = Mutex<(width: Int, lines: [String])?>(nil)

    init(_ result: ParseResult, file: SourceFile) {
        self.result = result
        self.file = file
    }

    var name: String { (file.path as NSString).lastPathComponent }

    /// `mine.ops: 2 errors`, then every diagnostic with its source line and
    /// caret, the source lines cut around the caret to `width`.
    func lines(width: Int) -> [String] {
        if let kept = kept.withLock({ $0 }), kept.width == width { return kept.lines }
        let text = DiagnosticPrinter(width: width).renderAll(result, file: file, color: false)
        var lines = [
            "\(file.path): \(Spelling.count(result.errorCount, "error")) \u{2014} the run shown is of the file "
                + "before this save; the next save reloads it", "",
        ]
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        kept.withLock { $0 = (width, lines) }
        return lines
    }
}
