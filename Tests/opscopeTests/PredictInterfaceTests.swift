import Foundation
import Testing

/// Predict mode in the real program, typed as a candidate would: a
/// question opened from the picker's Questions section and from `opscope
/// quiz FILE` on a terminal, answered, graded on the real run, the
/// deciding moment shown, tried again, left.
@Suite("predict mode in the interface", .serialized)
struct PredictInterfaceTests {
    /// The picker's Questions section follows the library's entries; its
    /// first entry is the question practice asks next: 01's, with nothing
    /// answered yet.
    @Test("from the picker: nothing gives the answer away, a wrong answer is graded, Enter shows why, r asks again")
    func fromThePicker() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let tmux = try TmuxSession([], columns: 80, rows: 24, environment: ["XDG_DATA_HOME": data.path])
        // The picker opens on the question practice asks next, and no
        // lesson's note shows while a question is selected.
        let picker = try tmux.waitFor(text: "▶ next ▸  01-chain.ops: In which order do fetch, save and decode start?")
        #expect(!picker.contains("waits in Pending"), "a lesson's note")
        try tmux.send("Enter")
        let question = try tmux.waitFor(text: "your answer: _")
        #expect(question.contains("a question"))
        #expect(!question.contains("dependency chain"), "the title stays hidden")
        #expect(!question.contains("waits in Pending"), "the notes stay hidden")
        // Letters are the answer's: s would suspend, c cancel, q quit.
        try tmux.send("save, fetch, decode")
        try tmux.waitFor(text: "your answer: save, fetch, decode_")
        try tmux.send("Enter")
        let graded = try tmux.waitFor(text: "graded:", timeout: 60)
        #expect(!graded.contains("all right"))
        // The first answer is kept for `opscope practice`: missed, it comes back soon.
        try tmux.waitFor(text: "kept (missed): back in 10 minutes")
        let kept = try String(contentsOf: data.appendingPathComponent("opscope/practice.json"), encoding: .utf8)
        #expect(kept.contains("\"id\" : \"library:01-chain.ops\""))
        try tmux.send("Enter")
        try tmux.waitFor(text: "the moment that decided")
        try tmux.send("r")
        try tmux.waitFor(text: "(try 2)")
        try tmux.waitFor(text: "your answer: save, fetch, decode_")
        // Esc leaves the question for the picker; q quits from there.
        try tmux.send("Escape")
        // Back in the picker: the next question practice asks is 02 (01 comes
        // back in 10 minutes), 01 is marked missed, its concept counted.
        try tmux.waitFor(text: "next ▸  02-cap.ops: How many of the six downloads")
        try tmux.waitFor(text: "right last time: dependencies 0/1")
        // Tab: the lessons (their notes show), Tab again: the questions (they hide).
        try tmux.send("Tab")
        try tmux.waitFor(text: "waits in Pending")
        try tmux.send("Tab")
        let questions = try tmux.waitFor(text: "▶ 01-chain.ops  ✗ In which order do fetch, save and decode start?")
        #expect(!questions.contains("waits in Pending"), "a lesson's note")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    /// Lesson 30's second wait never returns: the main thread, which
    /// draws and reads the keys, is lost for good. The grade is drawn all
    /// the same, the answer kept, and the keys that look at the run work.
    @Test("a question whose run deadlocks the main thread is graded on the board, kept, and can be read")
    func deadlockedQuestion() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let tmux = try TmuxSession(
            ["quiz", "scenarios/30-waiting-on-the-main-thread.ops"], columns: 80, rows: 24,
            environment: ["XDG_DATA_HOME": data.path])
        try tmux.waitFor(text: "your answer: _")
        try tmux.send("download finished, show finished, save finished, thumbnail finished, badge finished")
        try tmux.send("Enter")
        try tmux.waitFor(text: "graded: 4 of 5 right", timeout: 60)
        try tmux.waitFor(text: "kept (missed): back in 10 minutes")
        let kept = try String(contentsOf: data.appendingPathComponent("opscope/practice.json"), encoding: .utf8)
        #expect(kept.contains("\"id\" : \"library:30-waiting-on-the-main-thread.ops\""))
        // The Question pane scrolls to the reason; a key that would act on
        // the run says why it cannot.
        var scrolls = 0
        while try !tmux.screenText().contains("badge: yours finished"), scrolls < 30 {
            try tmux.send(")")
            scrolls += 1
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(try tmux.screenText().contains("badge: yours finished"))
        try tmux.send("c")
        try tmux.waitFor(text: "the run cannot go on")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("practice on a terminal opens the question on the board: no title, no note, graded there")
    func practiceOnTheBoard() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let tmux = try TmuxSession(["practice"], columns: 80, rows: 24, environment: ["XDG_DATA_HOME": data.path])
        let question = try tmux.waitFor(text: "your answer: _")
        #expect(question.contains("a question"))
        #expect(!question.contains("dependency chain"), "the title stays hidden")
        #expect(!question.contains("waits in Pending"), "the notes stay hidden")
        try tmux.send("fetch, decode, save")
        try tmux.send("Enter")
        try tmux.waitFor(text: "graded: 3 of 3", timeout: 60)
        try tmux.waitFor(text: "kept (right 1× in a row)")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    /// What the cards do not show and the answer needs: every timed action
    /// (with the main thread's calls) and clause, on the first screen at
    /// 80×24; the Swift code without a comment that states a rule.
    @Test(
        "the predict board shows the whole question at 80x24",
        arguments: [
            (
                "03-cancel.ops",
                [
                    "at 200ms: cancel queued", "at 300ms: cancel polite", "at 300ms:", "cancel stubborn", "stubborn:",
                    "ignores cancel",
                ]
            ),
            ("05-priority.ops", ["at 100ms: resume q"]),
            (
                "30-waiting-on-the-main-thread.ops",
                [
                    "at 200ms: wait download", "download.waitUntilFinished()", "at 1.2s: add thumbnail",
                    "at 1.3s: wait badge", "badge.waitUntilFinished()",
                ]
            ),
        ])
    func theWholeQuestion(_ file: String, _ givens: [String]) throws {
        let tmux = try TmuxSession(["quiz", "scenarios/" + file], columns: 80, rows: 24)
        let screen = try tmux.waitFor(text: "your answer: _")
        for given in givens { #expect(screen.contains(given), "\(file): '\(given)' is not on the board:\n\(screen)") }
        try tmux.send("C-e")
        let code = try tmux.waitFor(text: "OperationQueue")
        #expect(!code.contains("//"), "\(file): a comment in the Swift code:\n\(code)")
        try tmux.send("Escape")
        try tmux.send("Escape")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("quiz FILE on a terminal: the right answer, typed with Tab on the cards, is all right")
    func quizOnATerminal() throws {
        let tmux = try TmuxSession(["quiz", "scenarios/05-priority.ops"], columns: 160, rows: 50)
        let question = try tmux.waitFor(text: "your answer: _")
        #expect(!question.contains("queuePriority first"), "the notes stay hidden")
        // The cards in file order: low-one, urgent, normal-one, high-one.
        try tmux.sendKeys(["Down", "Tab", "Down", "Down", "Tab", "Up", "Tab", "Up", "Up", "Tab"])
        try tmux.waitFor(text: "your answer: urgent, high-one, normal-one, low-one_")
        try tmux.send("Enter")
        let graded = try tmux.waitFor(text: "graded:", timeout: 60)
        #expect(graded.contains("all right"))
        #expect(graded.contains("queuePriority first"), "the notes, once the answer is in")
        // Once graded, the keys are the board's again: q quits.
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("practice on the board: an answer that cannot be kept says so on the status line, with no date")
    func anAnswerNotKeptOnTheBoard() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-xdg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        // A file where the data folder's parent should be: nothing can be
        // made under it (a read-only folder does not stop root).
        try Data("x".utf8).write(to: data)
        let tmux = try TmuxSession(["practice"], columns: 120, rows: 30, environment: ["XDG_DATA_HOME": data.path])
        try tmux.waitFor(text: "your answer: _")
        try tmux.send("fetch, decode, save")
        try tmux.waitFor(text: "your answer: fetch, decode, save_")
        try tmux.send("Enter")
        let text = try tmux.waitFor(text: "your answer was not kept (cannot make the folder", timeout: 60)
        #expect(text.contains("graded: 3 of 3"))
        #expect(!text.contains("back in"))
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
    }
}
