import Foundation
import Practice
import Testing

/// `opscope quiz --generate`, run as a process.
@Suite("quiz --generate")
struct QuizGenerateTests {
    /// The question the command makes for `level` and `seed` (the same text
    /// when its confirming runs agree, as they do by construction).
    static func question(_ level: Int, _ seed: UInt64) throws -> GeneratedQuestion {
        try QuestionGenerator.generate(level: level, seed: seed) { _ in nil }
    }

    @Test("a right answer to a generated question exits 0, then shows the notes that explain it", arguments: [1, 2, 3])
    func rightAnswer(_ level: Int) throws {
        let question = try Self.question(level, 5)
        let result = try OpscopeBinary.run(
            ["quiz", "--generate", "--level", String(level), "--seed", "5", "--answer", question.answer])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout.hasPrefix(
                "A generated question: level \(level), seed 5 (opscope quiz --generate --level \(level) --seed 5 "
                    + "asks it again), confirmed by 3 runs on the real engine.\n"))
        #expect(try result.stdout.contains("\nQuestion: \(#require(question.scenario.quiz).question)\n"))
        #expect(result.stdout.contains("— all right!\n"))
        #expect(result.stdout.hasSuffix("  The answer: \(question.answer).\n"))
    }

    @Test("a wrong answer exits 1")
    func wrongAnswer() throws {
        let question = try Self.question(1, 2)
        guard case .startOrder = try #require(question.scenario.quiz).kind else { return }
        let wrong = question.answer.components(separatedBy: ", ").reversed().joined(separator: ", ")
        let result = try OpscopeBinary.run(["quiz", "--generate", "--seed", "2", "--answer", wrong])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\nWhy:\n"))
    }

    @Test("without --seed one is drawn and printed, and it asks the same question again")
    func drawnSeed() throws {
        let first = try OpscopeBinary.run(["quiz", "--generate", "--level", "2", "--answer", "x"])
        let line = try #require(first.stdout.components(separatedBy: "\n").first)
        let seed = try #require(
            line.components(separatedBy: "--seed ").last?.prefix { $0.isNumber }.description)
        #expect(!seed.isEmpty)
        let again = try OpscopeBinary.run(["quiz", "--generate", "--level", "2", "--seed", seed, "--answer", "x"])
        #expect(again.stdout == first.stdout)
    }

    @Test("--save writes the question as a scenario file that check, trace and swift take")
    func save() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = scratch.directory.appendingPathComponent("generated.ops").path
        let saved = try OpscopeBinary.run(["quiz", "--generate", "--level", "3", "--seed", "7", "--save", path])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(
            saved.stdout.hasSuffix(
                "Saved to \(path): 'opscope quiz \(path)' asks it, 'opscope \(path)' shows it run.\n"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == (try Self.question(3, 7)).text)
        #expect(try OpscopeBinary.run(["check", path]).status == 0)
        let trace = try OpscopeBinary.run(["trace", "--speed", "20", path])
        #expect(trace.stdout.contains("\nrun completed at ") || trace.stdout.contains("\nrun stalled at "))
        let swift = try OpscopeBinary.run(["swift", path])
        #expect(swift.status == 0)
        #expect(swift.stdout.contains("import Foundation"))
        let quiz = try OpscopeBinary.run(["quiz", path, "--answer", (try Self.question(3, 7)).answer])
        #expect(quiz.status == 0)
    }

    @Test("--save never replaces a file")
    func saveRefusesToOverwrite() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("mine.ops", "keep me\n")
        let result = try OpscopeBinary.run(["quiz", "--generate", "--save", path])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "opscope: error: '\(path)' already exists: --save writes a new file and never replaces one\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
    }

    @Test(
        "a wrong command line is refused with exit 2",
        arguments: [
            (["quiz", "--generate", "--level", "4"], "'--level' is a whole number from 1 to 3, not '4'"),
            (
                ["quiz", "--generate", "--seed", "-1"],
                "'--seed' is a whole number from 0 to 18446744073709551615, not '-1'"
            ),
            (
                ["quiz", "--generate", "--seed", "ten"],
                "'--seed' is a whole number from 0 to 18446744073709551615, not 'ten'"
            ),
            (
                ["quiz", "--level", "2", "scenarios/05-priority.ops"],
                "'--level' goes with --generate (opscope quiz --generate --level …)"
            ),
            (
                ["quiz", "--generate", "scenarios/05-priority.ops"],
                "'quiz --generate' makes its own scenario: give it no file"
            ),
            (
                ["quiz", "--generate", "--save", "x.ops", "--answer", "a"],
                "'--save' writes the question without asking it: give it no '--answer'"
            ),
        ])
    func usage(_ arguments: [String], _ message: String) throws {
        let result = try OpscopeBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == "opscope: error: \(message)\n")
    }
}
