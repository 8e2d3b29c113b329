import Foundation
import Practice
import Testing

/// `opscope practice`, run as a process with its data folder in a scratch
/// folder (XDG_DATA_HOME), never the user's.
@Suite("practice command")
struct PracticeCommandTests {
    /// A scratch data folder: `run` passes it as XDG_DATA_HOME.
    struct Data {
        let root: URL
        var folder: String { root.appendingPathComponent("opscope").path }
        var file: String { folder + "/practice.json" }
        var store: PracticeStore { PracticeStore(folder: folder) }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-practice-\(UUID())")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }

        func run(_ arguments: [String], input: String? = nil, timeout: Double = 60) throws -> ProcessResult {
            try OpscopeBinary.run(
                ["practice"] + arguments, input: input, timeout: timeout, environment: ["XDG_DATA_HOME": root.path])
        }

        var record: PracticeRecord { store.load(now: Date()).record }
    }

    static func withData(_ body: (Data) throws -> Void) throws {
        let data = try Data()
        defer { data.remove() }
        try body(data)
    }

    @Test("the first question is the library's first quiz; a right answer is kept and comes back in a day")
    func firstQuestion() throws {
        try Self.withData { data in
            let result = try data.run(["--answer", "fetch, decode, save"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            // The sheet, but no title: a lesson's title often names its answer.
            #expect(
                result.stdout.hasPrefix(
                    "Practice: nothing answered yet. The library's quizzes come first, then generated questions.\n\n"
                        + "Question: a library question — new to you\n\nQueues:\n"))

            // The title comes after the verdict only.
            let asked = result.stdout.components(separatedBy: "Running the scenario").first ?? ""
            #expect(!asked.contains("Download, decode, save: a dependency chain"))
            // Its file's name, which often says the lesson's point, after the verdict only.
            #expect(!asked.contains("01-chain"))
            #expect(result.stdout.contains("\nThat was 01-chain.ops, the quiz of the lesson"))
            #expect(result.stdout.contains("\nAbout this scenario: Download, decode, save: a dependency chain\n"))
            #expect(result.stdout.contains("— all right!\n"))
            #expect(result.stdout.contains("\nRight (1 time in a row): it comes back in 1 day, on "))
            let entry = try #require(data.record[.library(file: "01-chain.ops")])
            #expect(entry.streak == 1 && entry.answers == 1 && entry.concepts == [.dependencies])
        }
    }

    @Test("a missed question exits 1 and comes back in 10 minutes; the summary shows progress by concept")
    func missed() throws {
        try Self.withData { data in
            _ = try data.run(["--answer", "fetch, decode, save"])
            let result = try data.run(["--answer", "executing 6"])
            #expect(result.status == 1)
            #expect(
                result.stdout.hasPrefix(
                    "Practice: 1 question answered, 1 right at the last try; 0 due now (the next in "))
            #expect(result.stdout.contains("\n  dependencies       1 of 1  █\n"))
            #expect(result.stdout.contains("\n  QoS                not asked yet\n"))
            #expect(result.stdout.contains("\nQuestion: a library question — new to you\n"))
            #expect(result.stdout.contains("\nThat was 02-cap.ops"))
            #expect(result.stdout.contains("\nMissed: it comes back in 10 minutes, on "))
            #expect(data.record[.library(file: "02-cap.ops")]?.streak == 0)
        }
    }

    @Test("after the library, a generated question; its answer is kept by level and seed")
    func generated() throws {
        try Self.withData { data in
            let library = PracticeLibrary.load(
                folder: OpscopeBinary.packageRoot.appendingPathComponent("scenarios").path)
            let later = Date().addingTimeInterval(30 * 86_400)
            try data.store.save(
                PracticeRecord(
                    questions: library.map {
                        QuestionRecord(
                            id: .library(file: $0.fileName), concepts: $0.concepts, answers: 1, rights: 1, streak: 1,
                            lastAnswered: Date(), due: later)
                    }))
            let question = try QuestionGenerator.generate(level: 1, seed: 1) { _ in nil }
            let result = try data.run(["--answer", question.answer])
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("\nQuestion: a generated question (level 1, seed 1) — new to you\n"))
            #expect(result.stdout.contains("A generated question: level 1, seed 1"))
            #expect(data.record[.generated(level: 1, seed: 1)]?.concepts == question.concepts)
        }
    }

    @Test("a corrupt file is set aside, bytes kept, with a warning; practice goes on and writes a fresh one")
    func corrupt() throws {
        try Self.withData { data in
            try FileManager.default.createDirectory(atPath: data.folder, withIntermediateDirectories: true)
            let garbage = Foundation.Data([0x7B, 0x22, 0xFF, 0x00, 0x0A])
            try garbage.write(to: URL(fileURLWithPath: data.file))
            let result = try data.run(["--answer", "fetch, decode, save"])
            #expect(result.status == 0)
            #expect(
                result.stderr.hasPrefix(
                    "opscope: warning: your practice file '\(data.file)' is not a JSON object: it was set aside as '\(data.file).corrupt-"
                ))
            let aside = try #require(
                try FileManager.default.contentsOfDirectory(atPath: data.folder).first { $0.contains(".corrupt-") })
            #expect(FileManager.default.contents(atPath: data.folder + "/" + aside) == garbage)
            #expect(data.record.questions.count == 1)
        }
    }

    @Test("--reset sets the file aside and says where")
    func reset() throws {
        try Self.withData { data in
            let none = try data.run(["--reset"])
            #expect(none.status == 0)
            #expect(none.stdout.hasPrefix("There is no practice file to set aside"))
            _ = try data.run(["--answer", "fetch, decode, save"])
            let bytes = FileManager.default.contents(atPath: data.file)
            let result = try data.run(["--reset"])
            #expect(result.status == 0)
            let aside = try #require(
                result.stdout.components(separatedBy: "'").dropFirst().first, "\(result.stdout)")
            #expect(aside.hasPrefix(data.file + ".reset-"))
            #expect(FileManager.default.contents(atPath: aside) == bytes)
            #expect(!FileManager.default.fileExists(atPath: data.file))
            #expect(result.stdout.hasSuffix("The next 'opscope practice' starts over.\n"))
        }
    }

    @Test("an answer that cannot be read exits 2 and keeps nothing")
    func unreadableAnswer() throws {
        try Self.withData { data in
            let result = try data.run(["--answer", "fetch, nothing"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("no operation named 'nothing'"))
            #expect(!FileManager.default.fileExists(atPath: data.file))
        }
    }

    @Test("two questions in a row from standard input")
    func count() throws {
        try Self.withData { data in
            let result = try data.run(
                ["--count", "2"], input: "fetch, decode, save\nfinished 2, executing 2, ready 2\n")
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("\nQuestion 1 of 2: a library question"))
            #expect(result.stdout.contains("\nThat was 01-chain.ops"))
            #expect(result.stdout.contains("\nQuestion 2 of 2: a library question"))
            #expect(result.stdout.contains("\nThat was 02-cap.ops"))
            #expect(data.record.questions.count == 2)
        }
    }

    /// Lesson 30's second wait never returns: the main thread is lost for
    /// good, yet the answer is graded and kept, and the next question
    /// comes from a new opscope that reads the answers typed ahead.
    @Test("a question whose run deadlocks the main thread is graded and kept; the next starts in a new opscope")
    func deadlockedQuestion() throws {
        try Self.withData { data in
            let library = PracticeLibrary.load(
                folder: OpscopeBinary.packageRoot.appendingPathComponent("scenarios").path)
            let later = Date().addingTimeInterval(30 * 86_400)
            let deadlocked = "30-waiting-on-the-main-thread.ops"
            #expect(library.contains { $0.fileName == deadlocked })
            try data.store.save(
                PracticeRecord(
                    questions: library.filter { $0.fileName != deadlocked }.map {
                        QuestionRecord(
                            id: .library(file: $0.fileName), concepts: $0.concepts, answers: 1, rights: 1, streak: 1,
                            lastAnswered: Date(), due: later)
                    }))
            let generated = try QuestionGenerator.generate(level: 1, seed: 1) { _ in nil }
            let answer = "download finished, show finished, save finished, thumbnail finished, badge stuck"
            let result = try data.run(
                ["--count", "2"], input: answer + "\n\n" + generated.answer + "\n\n")
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("\nQuestion 1 of 2: a library question — new to you\n"))
            #expect(result.stdout.contains("\nThat was \(deadlocked)"))
            #expect(result.stdout.contains("The run stalled at "))
            #expect(result.stdout.contains("— all right!\n"))
            #expect(result.stdout.contains("the last question starts in a new opscope"))
            #expect(result.stdout.contains("\nQuestion: a generated question (level 1, seed 1) — new to you\n"))
            #expect(data.record[.library(file: deadlocked)]?.streak == 1)
            #expect(data.record[.generated(level: 1, seed: 1)]?.streak == 1)
        }
    }

    @Test(
        "a wrong command line is refused with exit 2",
        arguments: [
            (["--count", "2", "--answer", "a"], "'--answer' answers one question: it cannot go with '--count 2'"),
            (["--count", "0"], "'--count' is a whole number from 1 to 1000, not '0'"),
            (["--reset", "--count", "2"], "'--reset' only sets your practice aside: it asks no question"),
            (
                ["scenarios/05-priority.ops"],
                "'practice' takes no file: it picks its questions (see 'opscope help practice')"
            ),
        ])
    func usage(_ arguments: [String], _ message: String) throws {
        try Self.withData { data in
            let result = try data.run(arguments)
            #expect(result.status == 2)
            #expect(result.stderr == "opscope: error: \(message)\n")
        }
    }

    @Test("an answer that cannot be kept says so where the verdict is, and promises no date to come back")
    func anAnswerNotKept() throws {
        try Self.withData { data in
            // A file where the data folder's parent should be: nothing can be
            // made under it, as in a read-only folder, for root too (who may
            // write in a read-only folder, and then keeps the answer).
            let blocked = data.root.appendingPathComponent("not-a-folder")
            try Foundation.Data("x".utf8).write(to: blocked)
            var unwritable = [blocked.path]
            if geteuid() != 0 {
                // A read-only data folder, where the mode bits bind.
                let readOnly = data.root.appendingPathComponent("read-only")
                try FileManager.default.createDirectory(
                    at: readOnly.appendingPathComponent("opscope"), withIntermediateDirectories: true)
                chmod(readOnly.appendingPathComponent("opscope").path, 0o555)
                unwritable.append(readOnly.path)
            }
            for folder in unwritable {
                let result = try OpscopeBinary.run(
                    ["practice", "--answer", "fetch, decode, save"], environment: ["XDG_DATA_HOME": folder])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout.contains("— all right!\n"))
                #expect(result.stdout.contains("\nYour answer was not kept (cannot "), "\(result.stdout)")
                #expect(result.stdout.hasSuffix(": practice goes on without keeping it.\n"))
                #expect(!result.stdout.contains("comes back"))
                #expect(!result.stdout.contains(" on 20"), "a date")
            }
        }
    }

    @Test("without HOME or XDG_DATA_HOME there is nowhere to keep it: exit 2")
    func noDataFolder() throws {
        let result = try OpscopeBinary.run(["practice"], environment: ["HOME": "", "XDG_DATA_HOME": ""])
        #expect(result.status == 2)
        #expect(result.stderr == "opscope: error: no data folder to keep your practice in: set HOME or XDG_DATA_HOME\n")
    }

    @Test("help, like every command's")
    func help() throws {
        let result = try OpscopeBinary.run(["practice", "--help"])
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix(
                "USAGE: opscope practice [--count N] [--answer TEXT] [--text] [--speed X] [--reset]\n"))
        #expect(try OpscopeBinary.run(["help", "practice"]).stdout == result.stdout)
    }
}
