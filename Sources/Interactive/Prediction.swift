import Board
import Foundation
import Grading
import RunEvents
import ScenarioKit
import Screen

/// A scenario opened as a question (predict mode), as a value: the answer
/// being typed, then the run it waits for, then the grade. The session
/// (`SessionModel`) routes keys here while the answer is typed, feeds the
/// run's events while it goes on, and asks for the grade when it is over.
package struct Prediction: Sendable {
    package enum Phase: Sendable {
        case answering
        case running(QuizAnswer)
        case graded(QuizAnswer, QuizGrade)
    }

    /// What a key typed while answering asks the session for.
    package enum Edit: Equatable, Sendable {
        /// The draft changed (or nothing happened): redraw.
        case edited
        /// The answer reads: start the real run.
        case submitted
        /// Esc: leave the question.
        case leave
        /// Not an answer key: the interface handles it (arrows, a click).
        case interface
        /// Ctrl-E: show the scenario's Swift code.
        case showSwift
    }

    let scenario: Scenario
    let quiz: Quiz
    package private(set) var phase = Phase.answering
    package private(set) var draft = ""
    private(set) var errors: [String] = []
    package private(set) var attempt = 1
    /// The run's events while it goes on (a question's scenario is small).
    private var events: [LifecycleEvent] = []
    /// The deciding moment (its sequence number) the history last went to.
    private var lastJump: Int?

    /// nil for a scenario without a quiz.
    package init?(scenario: Scenario) {
        guard let quiz = scenario.quiz else { return nil }
        self.scenario = scenario
        self.quiz = quiz
    }

    package var isAnswering: Bool {
        if case .answering = phase { return true }
        return false
    }

    package var isRunning: Bool {
        if case .running = phase { return true }
        return false
    }

    /// A key while answering. `selected` is the card the selection is on.
    package mutating func edit(_ key: Key, selected: OperationID?) -> Edit {
        switch key {
        case .character(let c):
            draft.append(c)
            errors = []
            return .edited
        case .backspace:
            if !draft.isEmpty { draft.removeLast() }
            return .edited
        case .ctrl("u"):
            draft = ""
            return .edited
        case .tab:
            guard let selected else { return .edited }
            let name = scenario[operation: selected].name
            // `a, b, ` then the name; a final state is typed after it.
            let trimmed = draft.trimmingCharacters(in: .whitespaces)
            let lead = trimmed.isEmpty ? "" : trimmed.hasSuffix(",") ? trimmed + " " : trimmed + ", "
            draft = lead + name + (quiz.kind == .finalState ? " " : "")
            errors = []
            return .edited
        case .enter:
            switch QuizAnswerParser.parse(draft, kind: quiz.kind, scenario: scenario) {
            case .success(let answer):
                phase = .running(answer)
                errors = []
                events = []
                return .submitted
            case .failure(let error):
                errors = error.messages
                return .edited
            }
        case .escape:
            return .leave
        case .ctrl("e"):
            return .showSwift
        default:
            return .interface
        }
    }

    /// The run's events, while it goes on.
    package mutating func take(_ batch: [LifecycleEvent]) {
        if isRunning { events += batch }
    }

    /// The run is over (it ended, or nothing can progress any more): the
    /// grade, for a run at `speed`. Returns it the first time.
    package mutating func grade(speed: Double) -> QuizGrade? {
        guard case .running(let answer) = phase else { return nil }
        let grade = QuizGrader.grade(scenario, events: events, answer: answer, speed: speed)
        phase = .graded(answer, grade)
        events = []
        lastJump = nil
        return grade
    }

    /// `r`: the question again, on a fresh run; the last answer stays to
    /// be edited.
    package mutating func again() {
        if case .graded = phase { attempt += 1 }
        phase = .answering
        errors = []
        events = []
        lastJump = nil
    }

    /// One moment that decided wrong rows of the grade.
    package struct DecidingMoment: Equatable, Sendable {
        /// The event's sequence number.
        package var seq: Int
        /// The first wrong row (in the table's order) it decided.
        package var row: QuizGrade.Row
        /// Its place among the grade's deciding moments (1-based), and how many there are.
        package var number: Int
        package var count: Int
    }

    /// Enter after the grade: the next moment that decided a wrong row,
    /// in the run's order, each moment once however many rows it decided
    /// (round again after the last).
    package mutating func nextDecidingMoment() -> DecidingMoment? {
        guard case .graded(_, let grade) = phase else { return nil }
        var firstRow: [Int: QuizGrade.Row] = [:]
        for row in grade.rows where !row.right {
            if let seq = row.moment, firstRow[seq] == nil { firstRow[seq] = row }
        }
        let moments = firstRow.keys.sorted()
        guard !moments.isEmpty else { return nil }
        let next = moments.firstIndex { $0 > (lastJump ?? Int.min) } ?? 0
        lastJump = moments[next]
        return DecidingMoment(
            seq: moments[next], row: firstRow[moments[next]]!, number: next + 1, count: moments.count)
    }

    /// What the frame shows of it.
    package var frame: PredictFrame {
        let framePhase: PredictFrame.Phase
        switch phase {
        case .answering: framePhase = .answering
        case .running: framePhase = .running
        case .graded(_, let grade): framePhase = .graded(grade)
        }
        return PredictFrame(
            phase: framePhase, question: quiz.question, subject: QuizSheet.subject(of: quiz, in: scenario),
            instructions: Self.instructions(for: quiz.kind), draft: draft, errors: errors,
            attempt: attempt, givens: QuizSheet.givens(scenario))
    }

    /// The quiz command's instructions, for one line typed in the pane:
    /// Enter submits, so nothing says how a line or the answer ends.
    static func instructions(for kind: QuizKind) -> String {
        QuizAnswerParser.instructions(for: kind)
            .replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: " An empty line ends the answer.", with: "")
            .replacingOccurrences(of: ", then press Return.", with: ".")
            .replacingOccurrences(of: " Then press Return.", with: "")
            .replacingOccurrences(of: "per line or separated by commas", with: "separated by commas")
    }
}
