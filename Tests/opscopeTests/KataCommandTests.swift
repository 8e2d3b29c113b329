import Foundation
import Katas
import Practice
import Testing

/// `opscope kata async-operation FILE`, run as a user runs it: the file
/// compiled with the kata's checks by the real swiftc and run on the real
/// engine. A right answer passes every check; each wrong answer fails the
/// check it breaks, with the rule, and passes the others; a file that does
/// not compile, or whose class the checks cannot use, is refused with
/// swiftc's diagnostics or the kata's need; a crash decides nothing more.
@Suite("opscope kata: the engine grades the user's Operation", .serialized)
struct KataCommandTests {
    /// One compile cache for every test of this run: a file checked twice
    /// is compiled once.
    static let cache = FileManager.default.temporaryDirectory
        .appendingPathComponent("opscope-kata-tests-\(UUID().uuidString)").path
    /// Where the runs keep their results (never the user's own record).
    static let data = cache + "-data"

    static func fixture(_ name: String, of kata: String = "async-operation") -> String {
        OpscopeBinary.packageRoot.appendingPathComponent("Tests/opscopeTests/Fixtures/katas/\(kata)/\(name).swift")
            .path
    }

    static func kata(_ arguments: [String], directory: URL? = nil) throws -> ProcessResult {
        try OpscopeBinary.run(
            ["kata"] + arguments, timeout: 300, environment: ["XDG_CACHE_HOME": cache, "XDG_DATA_HOME": data],
            directory: directory)
    }

    @Test func aRightAnswerPassesEveryCheck() throws {
        let result = try Self.kata(["async-operation", Self.fixture("correct")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("async-operation: AsyncDownload in "))
        #expect(result.stdout.contains("all 6 checks passed"))
        #expect(!result.stdout.contains("✗"))
        // The same file again: its build is kept, nothing is compiled.
        let again = try Self.kata(["async-operation", Self.fixture("correct")])
        #expect(again.status == 0)
        #expect(!again.stdout.contains("compil"), "\(again.stdout)")
        // Kept for its concepts, under the kata's name, right both times.
        #expect(again.stdout.contains("kept in your practice record"))
        let record = try String(contentsOfFile: Self.data + "/opscope/practice.json", encoding: .utf8)
        #expect(record.contains("\"kata:async-operation\""), "\(record)")
        #expect(record.contains("\"completion-blocks\""))
    }

    /// Each wrong answer: the check it fails, and a piece of what the
    /// failure says.
    static let wrong: [(file: String, check: String, says: String)] = [
        ("finish-not-told", "it runs and finishes, and Foundation is told", "but Foundation was never told"),
        (
            "runs-when-cancelled", "cancelled before it starts, it finishes without its work",
            "though it was cancelled before it started"
        ),
        ("ignores-cancel", "cancelled during its work, it finishes within a second", "cancel() did not reach the work"),
        (
            "captures-itself", "nothing keeps it alive once its queue is done with it",
            "its completion block captures it"
        ),
        ("stays-executing", "no more than 4 of 100 say they are executing", "said isExecuting at once"),
        ("unsafe-flags", "its flags are safe to read from any thread", "a data race: "),
    ]

    @Test(arguments: wrong.indices)
    func aWrongAnswerFailsTheCheckItBreaksWithTheRule(_ index: Int) throws {
        let (file, check, says) = Self.wrong[index]
        let result = try Self.kata(["async-operation", Self.fixture(file)])
        #expect(result.status == 1, "\(file): \(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let failed = try #require(lines.firstIndex { $0.hasPrefix("  ✗") && $0.contains(check) }, "\(result.stdout)")
        #expect(lines[failed + 1].contains(says), "\(result.stdout)")
        if file == "unsafe-flags" {
            // Both places, in the user's file, with their source text.
            #expect(lines[failed + 1].contains("unsafe-flags.swift:"), "\(result.stdout)")
            #expect(lines[failed + 1].contains("(`"), "\(result.stdout)")
        }
        #expect(lines[failed + 2].hasPrefix("      rule: "))
    }

    /// `--board` opens the board: without a terminal it is a usage error,
    /// said before anything is compiled.
    @Test func theBoardNeedsATerminal() throws {
        let result = try Self.kata(["async-operation", Self.fixture("correct"), "--board"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'--board' opens the board: it needs a terminal"), "\(result.stderr)")
        #expect(!result.stdout.contains("compiling"))
    }

    @Test func aFileThatDoesNotCompileShowsSwiftcsDiagnosticsAndChecksNothing() throws {
        let path = Self.fixture("type-error")
        let result = try Self.kata(["async-operation", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(path):16:"), "\(result.stderr)")
        #expect(result.stderr.contains(": error: "))
        #expect(result.stderr.contains("^"))
        #expect(result.stderr.contains("nothing was checked"))
        #expect(!result.stdout.contains("✓"))
    }

    @Test func aClassTheChecksCannotUseIsSaidAsWhatTheKataNeeds() throws {
        let result = try Self.kata(["async-operation", Self.fixture("no-init")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("compiles, but the kata's checks cannot use it"), "\(result.stderr)")
        #expect(result.stderr.contains("init(seconds: Double)"))
        #expect(!result.stderr.contains("main.swift"), "the harness's own lines are not the user's to read")
    }

    @Test func aCrashEndsTheCheckUnderWayWithFoundationsMessage() throws {
        let result = try Self.kata(["async-operation", Self.fixture("traps")])
        #expect(result.status == 1)
        #expect(result.stdout.contains("not decided: the program was ended by signal"), "\(result.stdout)")
        #expect(result.stdout.contains("the download has no server"))
        #expect(result.stdout.contains("0 of 6 checks passed"))
    }

    @Test func theStarterIsWrittenOnceAndNeverOverAFile() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let first = try Self.kata(["async-operation"], directory: scratch.directory)
        let written = scratch.directory.appendingPathComponent("async-operation.swift")
        #expect(first.stdout.contains("wrote async-operation.swift"), "\(first.stdout)\(first.stderr)")
        #expect(first.status == 1, "the starter compiles and fails its checks")
        #expect(first.stdout.contains("it never finished"))
        let mine = "// mine\n"
        try Data(mine.utf8).write(to: written)
        let second = try Self.kata(["async-operation"], directory: scratch.directory)
        #expect(try String(contentsOf: written, encoding: .utf8) == mine)
        #expect(!second.stdout.contains("wrote "))
        #expect(second.status == 2, "a file without the class does not compile with the checks")
    }

    @Test func resultPassingARightAnswerPassesAndWrongOnesFailWhereTheyBreak() throws {
        let right = try Self.kata(["result-passing", Self.fixture("correct", of: "result-passing")])
        #expect(right.status == 0, "\(right.stdout)\(right.stderr)")
        #expect(right.stdout.contains("result-passing: Producer and Doubler in "))
        #expect(right.stdout.contains("all 4 checks passed"))

        let shared = try Self.kata(["result-passing", Self.fixture("shared-variable", of: "result-passing")])
        #expect(shared.status == 1)
        #expect(shared.stdout.contains("✗ twenty pairs at once"), "\(shared.stdout)")
        #expect(shared.stdout.contains("though its producer was cancelled and made nothing"))

        // A force-unwrap of what a cancelled producer never made: the crash
        // decides nothing more, and says Foundation's (Swift's) reason.
        let unwrap = try Self.kata(["result-passing", Self.fixture("force-unwrap", of: "result-passing")])
        #expect(unwrap.status == 1)
        #expect(unwrap.stdout.contains("✓ a doubler after its producer, on one queue"), "\(unwrap.stdout)")
        #expect(unwrap.stdout.contains("not decided: the program was ended by signal"))
        #expect(unwrap.stdout.contains("Unexpectedly found nil while unwrapping an Optional value"))
        // The file as the user named it, not as Swift's module has it.
        #expect(unwrap.stdout.contains(Self.fixture("force-unwrap", of: "result-passing") + ":29: Fatal error"))
        #expect(!unwrap.stdout.contains("program/"))
    }

    @Test func groupOperationARightAnswerPassesAndWrongOnesFailWhereTheyBreak() throws {
        let right = try Self.kata(["group-operation", Self.fixture("correct", of: "group-operation")])
        #expect(right.status == 0, "\(right.stdout)\(right.stderr)")
        #expect(right.stdout.contains("all 4 checks passed"))

        let blocking = try Self.kata(["group-operation", Self.fixture("blocking", of: "group-operation")])
        #expect(blocking.status == 1)
        #expect(blocking.stdout.contains("it held its thread while the children ran"), "\(blocking.stdout)")
        #expect(blocking.stdout.contains("a child that was still waiting started after the cancel"))

        let cancel = try Self.kata(["group-operation", Self.fixture("cancel-not-passed-on", of: "group-operation")])
        #expect(cancel.status == 1)
        #expect(cancel.stdout.contains("✓ a dependent of the group starts only once all five children ended"))
        #expect(cancel.stdout.contains("✗ cancelled while its children run"), "\(cancel.stdout)")
    }

    @Test func cancellableTaskARightAnswerPassesAndWrongOnesFailWhereTheyBreak() throws {
        let right = try Self.kata(["cancellable-task", Self.fixture("correct", of: "cancellable-task")])
        #expect(right.status == 0, "\(right.stdout)\(right.stderr)")
        #expect(right.stdout.contains("all 4 checks passed"))

        let notPassedOn = try Self.kata(
            ["cancellable-task", Self.fixture("cancel-not-passed-on", of: "cancellable-task")])
        #expect(notPassedOn.status == 1)
        #expect(notPassedOn.stdout.contains("✗ cancelled while its 5s job runs"), "\(notPassedOn.stdout)")
        #expect(notPassedOn.stdout.contains("its job went on: nothing cancelled it"))

        // No second look at isCancelled once the job is kept: the cancel that
        // comes while start() makes the job finds none, and is lost.
        let window = try Self.kata(["cancellable-task", Self.fixture("window", of: "cancellable-task")])
        #expect(window.status == 1)
        #expect(window.stdout.contains("✓ cancelled while its 5s job runs"), "\(window.stdout)")
        #expect(window.stdout.contains("✗ a cancel that comes while start() is making the job still reaches it"))
        #expect(window.stdout.contains("Look at isCancelled again once the job is"))
    }

    @Test func mainThreadARightAnswerPassesAndMainSyncFailsTwiceTheSecondByCrashing() throws {
        let right = try Self.kata(["main-thread", Self.fixture("correct", of: "main-thread")])
        #expect(right.status == 0, "\(right.stdout)\(right.stderr)")
        #expect(right.stdout.contains("all 4 checks passed"))

        let sync = try Self.kata(["main-thread", Self.fixture("main-sync", of: "main-thread")])
        #expect(sync.status == 1)
        #expect(
            sync.stdout.contains("✓ on a background queue, its work runs once, on the main thread"), "\(sync.stdout)")
        #expect(sync.stdout.contains("its work ran on the main thread after it was cancelled"))
        // On the main queue, DispatchQueue.main.sync waits for its own thread,
        // and libdispatch ends the program: the check fails with that rule.
        #expect(sync.stdout.contains("✗ on OperationQueue.main"))
        #expect(sync.stdout.contains("the program was ended by signal 4 (SIGILL)"))
        #expect(sync.stdout.contains("DispatchQueue.main.sync called there waits for itself"))
    }

    /// The command lines of the processes running now.
    static func commandLines() -> [String] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return pids.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// A signal while the checks run (the starter's: each waits seconds for
    /// a finish that never comes) ends opscope with 128 + it, and the
    /// program it ran goes with it.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalEndsTheCheckAndTheProgramItRan(_ signal: Int32) throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let cache = scratch.directory.appendingPathComponent("cache").path
        let result = try OpscopeBinary.run(
            ["kata", "async-operation"], timeout: 120, signal: (signal, after: 6),
            environment: ["XDG_CACHE_HOME": cache, "XDG_DATA_HOME": cache], directory: scratch.directory)
        #expect(result.status == 128 + signal, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("Crash"), "\(result.stderr)")
        // Killed as opscope ends (the compiler's or the checks' whole process
        // group); what was killed may take a moment to be gone.
        let left = { Self.commandLines().filter { $0.contains(cache) } }
        let deadline = Date().addingTimeInterval(10)
        while !left().isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(left().isEmpty, "what opscope ran outlived it: \(left())")
    }

    @Test func theListAndAWrongNameOrCommandLine() throws {
        let list = try Self.kata([])
        #expect(list.status == 0)
        #expect(list.stdout.hasPrefix("async-operation  "))
        #expect(list.stdout.contains("\nresult-passing   "))
        #expect(list.stdout.contains("\ngroup-operation  "))
        #expect(list.stdout.contains("\ncancellable-task "))
        #expect(list.stdout.contains("\nmain-thread      "))
        let misspelt = try Self.kata(["async-operaton"])
        #expect(misspelt.status == 2)
        #expect(misspelt.stderr.contains("no kata is called 'async-operaton'"))
        #expect(misspelt.stderr.contains("async-operation"))
        #expect(try Self.kata(["async-operation", "a.swift", "b.swift"]).status == 2)
        #expect(try Self.kata(["async-operation", "/no/such/file.swift"]).status == 2)
    }

    /// Every kata's concepts are words the practice record knows, so a
    /// result is counted where the learner looks.
    @Test func everyKatasConceptsAreThePracticeRecordsWords() {
        for kata in Kata.all {
            #expect(!kata.concepts.isEmpty)
            for concept in kata.concepts { #expect(Concept(rawValue: concept) != nil, "\(kata.name): \(concept)") }
        }
    }
}
