import Board
import Grading
import ScenarioKit
import TextKit

/// A scenario opened as a question (predict mode), as a frame draws it:
/// the question in the notes pane, the answer being typed, and after the
/// run the grade. While the answer is not in, the frame hides what gives
/// it away: the notes, the expectations, the inspector's reasons and
/// notes, and the captions (the run has not started, so none is reached).
public struct PredictFrame: Sendable {
    public enum Phase: Sendable, Hashable {
        /// The learner is typing the answer; the run waits.
        case answering
        /// The answer is in; the real run goes on.
        case running
        /// The run is over and the answer graded.
        case graded(QuizGrade)
    }

    public var phase: Phase
    public var question: String
    /// What the question is about, for the kinds that name operations.
    public var subject: String?
    /// How to write the answer (`QuizAnswerParser.instructions`).
    public var instructions: String
    /// The answer as typed so far.
    public var draft: String
    /// Why the last submitted answer could not be read.
    public var errors: [String]
    /// The answers given so far (1 while answering the first time).
    public var attempt: Int
    /// What the file says that the cards do not show and the answer may
    /// need (`QuizSheet.givens`): the timed actions in time order, then
    /// the operations' clauses. Shown in the band over the columns and in
    /// the question pane until the grade.
    public var givens: [String]

    public init(
        phase: Phase, question: String, subject: String? = nil, instructions: String, draft: String = "",
        errors: [String] = [], attempt: Int = 1, givens: [String] = []
    ) {
        self.phase = phase
        self.question = question
        self.givens = givens
        self.subject = subject
        self.instructions = instructions
        self.draft = draft
        self.errors = errors
        self.attempt = attempt
    }

    /// The answer is not in yet: what gives it away stays hidden.
    public var hidesAnswers: Bool { phase == .answering }

    /// The notes pane's paragraphs in predict mode: the question, then the
    /// answer being typed and its keys, or the answer and the grade; the
    /// scenario's notes only once the answer is graded.
    static func items(_ predict: PredictFrame, board: BoardState, theme: Theme, glyphs: GlyphSet) -> [(String, Style)] {
        var items: [(String, Style)] = [
            (
                Wording.plain(predict.question, glyphs: glyphs)
                    + (predict.attempt > 1 ? " (try \(predict.attempt))" : ""),
                theme.heading
            )
        ]
        if let subject = predict.subject { items.append((Wording.plain(subject, glyphs: glyphs), theme.dim)) }
        if predict.phase == .answering || predict.phase == .running, !predict.givens.isEmpty {
            for given in predict.givens {
                items.append(("\(glyphs.bullet) " + Wording.plain(given, glyphs: glyphs), theme.info))
            }
        }
        items.append(("", theme.plain))
        switch predict.phase {
        case .answering:
            items.append(
                (
                    Wording.plain(predict.instructions.replacingOccurrences(of: "\n", with: " "), glyphs: glyphs),
                    theme.dim
                ))
            items.append(("", theme.plain))
            items.append(("Your answer: " + predict.draft + "_", theme.info))
            for error in predict.errors { items.append((Wording.plain(error, glyphs: glyphs), theme.refusal)) }
            items.append(("", theme.plain))
            items.append(
                (
                    "Type it, or pick cards with the arrows and press Tab to add the selected one's name. "
                        + "Enter submits and runs the scenario on the real engine. Ctrl-E shows its Swift code; "
                        + "Esc leaves.", theme.dim
                ))
        case .running:
            items.append(("Your answer: " + predict.draft, theme.info))
            items.append(("The real run is going on: the grade comes when it ends.", theme.dim))
        case .graded(let grade):
            items.append(("Your answer: " + predict.draft, theme.info))
            items.append(
                (
                    "Score: \(grade.scoreLine)" + (grade.isCorrect ? " \(glyphs.check) all right!" : "."),
                    grade.isCorrect ? theme.held : theme.failed
                ))
            if grade.kind == .startOrder {
                items += startOrderTable(grade, theme: theme, glyphs: glyphs)
            } else {
                for row in grade.rows {
                    let mark = row.right ? glyphs.check : glyphs.cross
                    let label = row.label.isEmpty ? "" : row.label + ": "
                    let note = row.note.isEmpty ? "" : " (\(row.note))"
                    items.append(
                        (
                            "\(mark) \(label)yours \(row.yours), the run \(row.actual)\(note)",
                            row.right ? theme.plain : theme.failed
                        ))
                }
            }
            if !grade.explanations.isEmpty {
                items.append(("Why", theme.heading))
                for line in grade.explanations {
                    items.append(("\(glyphs.bullet) " + Wording.plain(line, glyphs: glyphs) + ".", theme.plain))
                }
            }
            for note in grade.notes { items.append(("Note: " + Wording.plain(note, glyphs: glyphs) + ".", theme.dim)) }
            items.append(("", theme.plain))
            let jump = grade.rows.contains { !$0.right && $0.moment != nil }
            items.append(
                (
                    (jump
                        ? "Enter goes to the moments that decided the wrong rows, in the run's order (] [ step from there); "
                        : "")
                        + (grade.isCorrect ? "r asks it again on a fresh run." : "r tries again on a fresh run."),
                    theme.dim
                ))
            if !board.scenario.notes.isEmpty {
                items.append(("", theme.plain))
                items.append(("About this scenario", theme.heading))
                for note in board.scenario.notes { items.append((Wording.plain(note, glyphs: glyphs), theme.plain)) }
            }
        }
        return items
    }
}

extension PredictFrame {
    /// A start order's grade as two columns side by side, the answer's and
    /// the run's, lined up as a diff: read down, each column is that order
    /// unchanged; a name on one side only is out of place, left out, or
    /// never started.
    static func startOrderTable(_ grade: QuizGrade, theme: Theme, glyphs: GlyphSet) -> [(String, Style)] {
        let width = max(5, grade.rows.map { displayWidth($0.yours) }.max() ?? 0)
        func cell(_ text: String) -> String { text + String(repeating: " ", count: max(0, width - displayWidth(text))) }
        var lines: [(String, Style)] = [("  " + cell("yours") + "  the run", theme.dim)]
        for row in grade.rows {
            let mark = row.right ? glyphs.check : glyphs.cross
            let note = row.note.isEmpty ? "" : "  " + row.note
            lines.append(
                ("\(mark) " + cell(row.yours) + "  " + row.actual + note, row.right ? theme.plain : theme.failed))
        }
        return lines
    }
}

extension Scenario {
    /// The scenario as an interviewer shows it before the answer: its
    /// queues, operations and actions, without the title, notes,
    /// expectations and captions that would give the answer away.
    public var asQuestion: Scenario {
        var copy = self
        copy.title = nil
        copy.notes = []
        copy.expectations = []
        copy.captions = []
        return copy
    }
}
