import Foundation
import Testing

/// `opscope quiz FILE`, run as a process with an answer on the command line
/// or on standard input.
@Suite("quiz command")
struct QuizCommandTests {
    /// A suspended serial queue resumed at 100ms: priority decides.
    static let priority = """
        title "queuePriority on a serial queue"
        note "All four are ready when the queue resumes."
        queue q serial suspended
        op low-one    work 100ms priority low
        op normal-one work 100ms
        op high-one   work 100ms priority high
        op urgent     work 100ms priority veryHigh
        at 100ms resume q
        quiz "In which order do the four operations start?" answer start-order

        """

    /// A serial queue: skipped is cancelled while it waits; dependent still runs.
    static let cancel = """
        queue q serial
        op first     work 600ms
        op skipped   work 500ms
        op dependent work 200ms after skipped
        at 200ms cancel skipped
        quiz "How does each operation end?" answer final-state

        """

    /// A chain that ends on the main queue.
    static let mainChain = """
        queue background
        queue ui main
        op load on background work 300ms
        op show on ui work 100ms after load
        quiz "In which order do they start?" answer start-order

        """

    private func withFile<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        return try body(try scratch.write("quiz.ops", text))
    }

    @Test("a right answer exits 0 with a full score")
    func rightAnswer() throws {
        let result = try withFile(Self.priority) {
            try OpscopeBinary.run(["quiz", $0, "--answer", "urgent, high-one, normal-one, low-one"])
        }
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        // No title before the answer: a lesson's title often names it.
        #expect(result.stdout.hasPrefix("Queues:\n  q: serial, suspended at the start\n"))
        #expect(result.stdout.contains("\n  urgent on q: work 100ms, priority veryHigh\n"))
        #expect(result.stdout.contains("\n  at 100ms: resume q\n"))
        #expect(result.stdout.contains("\nQuestion: In which order do the four operations start?\n"))
        #expect(result.stdout.contains("\nThe run completed at "))
        #expect(result.stdout.contains("\nScore: 4 of 4 in the right order — all right!\n"))
        #expect(!result.stdout.contains("Why:"))
        // The title and notes come after the result: they would give the answer away.
        #expect(
            result.stdout.hasSuffix(
                "\nAbout this scenario: queuePriority on a serial queue\n  All four are ready when the queue resumes.\n"
            ))
    }

    @Test("a wrong answer exits 1 with the rule behind each difference")
    func wrongAnswer() throws {
        let result = try withFile(Self.priority) {
            try OpscopeBinary.run(["quiz", $0, "--answer", "low-one normal-one high-one urgent"])
        }
        #expect(result.status == 1)
        #expect(result.stdout.contains("\nScore: 1 of 4 in the right order.\n"))
        // Lined up as a diff: urgent, the one kept in order, shares a row.
        #expect(result.stdout.contains("\n  low-one      —                   ✗ out of place\n"))
        #expect(result.stdout.contains("\n  urgent       urgent      0."))
        #expect(result.stdout.contains("s  ✓\n  —            high-one    0."))
        let why = result.stdout.components(separatedBy: "\nWhy:\n").last ?? ""
        let lines = why.split(separator: "\n").filter { $0.hasPrefix("  - ") }
        #expect(lines.count == 3)
        #expect(
            lines.first?.hasPrefix("  - urgent started before high-one: both were ready when q resumed at 0.1") == true)
        #expect(lines.first?.hasSuffix("and urgent has the higher queuePriority (veryHigh against high).") == true)
        #expect(
            lines.last?.hasPrefix("  - normal-one started before low-one: both were ready when high-one finished at ")
                == true)
    }

    @Test("an answer on standard input, ended by an empty line; a cancelled dependency counts as finished")
    func answerOnStandardInput() throws {
        let wrong = try withFile(Self.cancel) {
            try OpscopeBinary.run(
                ["quiz", $0], input: "first finished\nskipped cancelled, dependent stuck\n\nignored\n")
        }
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("STATE being finished, cancelled (ran, then cancelled), skipped (cancelled"))
        #expect(wrong.stdout.contains("\nScore: 1 of 3 right.\n"))
        #expect(
            wrong.stdout.contains(
                "\n  - skipped: skipped, not cancelled — it was cancelled at 0.2"))
        #expect(
            wrong.stdout.contains(
                "(by 'at 200ms cancel skipped') before it started: a cancelled operation finishes without running.\n"))
        #expect(wrong.stdout.contains("\n  - dependent: finished, not stuck — it ran and finished at "))
        #expect(wrong.stdout.contains(" although skipped was cancelled: a cancelled dependency counts as finished.\n"))

        let right = try withFile(Self.cancel) {
            try OpscopeBinary.run(["quiz", $0], input: "first finished, skipped skipped, dependent finished")
        }
        #expect(right.status == 0)
        #expect(right.stdout.contains("\nScore: 3 of 3 right — all right!\n"))
    }

    @Test("a scenario with a main queue runs and is graded")
    func mainQueue() throws {
        let result = try withFile(Self.mainChain) { try OpscopeBinary.run(["quiz", $0, "--answer", "show load"]) }
        #expect(result.status == 1)
        #expect(result.stdout.contains("  ui: the main queue (serial, runs on the main thread)\n"))
        #expect(
            result.stdout.contains(
                "\n  - show started after load because it depends on load (it became ready only when load finished at ")
        )
    }

    /// Lesson 30's second wait blocks the main thread for good (a
    /// deadlock): the grade comes from what the engine reported by the
    /// stall, as `trace` reports it, right or wrong.
    @Test(
        "a run that deadlocks the main thread is graded",
        arguments: [
            ("badge stuck", Int32(0), "Score: 5 of 5 right — all right!"), ("badge finished", 1, "Score: 4 of 5"),
        ]
    )
    func deadlocked(_ badge: String, _ status: Int32, _ score: String) throws {
        let result = try OpscopeBinary.run(
            [
                "quiz", "scenarios/30-waiting-on-the-main-thread.ops", "--answer",
                "download finished, show finished, save finished, thumbnail finished, " + badge,
            ], timeout: 60)
        #expect(result.status == status, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("The run stalled at "))
        #expect(result.stdout.contains(score))
        #expect(result.stderr.isEmpty)
    }

    @Test("a file without a quiz is a usage error")
    func noQuiz() throws {
        let result = try withFile("queue q\nop a work 10ms\n") { path in
            (path, try OpscopeBinary.run(["quiz", path]))
        }
        #expect(result.1.status == 2)
        #expect(result.1.stdout.isEmpty)
        #expect(
            result.1.stderr
                == "opscope: error: '\(result.0)' has no quiz; add one, like: quiz \"In which order do they start?\" answer start-order\n"
        )
    }

    @Test("an answer that cannot be read exits 2 when no one can retype it")
    func unreadableAnswer() throws {
        let onCommandLine = try withFile(Self.priority) { try OpscopeBinary.run(["quiz", $0, "--answer", "urgnt, q"]) }
        #expect(onCommandLine.status == 2)
        #expect(
            onCommandLine.stderr
                == "opscope: error: no operation named 'urgnt' (did you mean 'urgent'?)\nopscope: error: 'q' is a queue, not an operation\n"
        )
        #expect(!onCommandLine.stdout.contains("Running"))

        let piped = try withFile(Self.cancel) { try OpscopeBinary.run(["quiz", $0], input: "first done\n") }
        #expect(piped.status == 2)
        #expect(
            piped.stderr.contains(
                "opscope: error: unknown state 'done': a state is finished, cancelled, skipped or stuck\n"))

        let nothing = try withFile(Self.cancel) { try OpscopeBinary.run(["quiz", $0]) }
        #expect(nothing.status == 2)
        #expect(nothing.stderr == "opscope: error: no answer on standard input (or give one with --answer)\n")
    }

    @Test("help, the command list, and wrong command lines")
    func commandLine() throws {
        let help = try OpscopeBinary.run(["quiz", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("USAGE: opscope quiz FILE [--answer TEXT] [--text] [--speed X]\n"))
        #expect(try OpscopeBinary.run(["help", "quiz"]).stdout == help.stdout)
        #expect(try OpscopeBinary.run(["--help"]).stdout.contains("\n  quiz    "))
        let none = try OpscopeBinary.run(["quiz"])
        #expect(none.status == 2)
        #expect(none.stderr == "opscope: error: 'quiz' needs a scenario file\n")
        let speed = try OpscopeBinary.run(["quiz", "x.ops", "--speed", "0"])
        #expect(speed.status == 2)
        #expect(speed.stderr == "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not '0'\n")
    }
}
