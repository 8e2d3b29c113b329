import CommandSupport
import Foundation
import Testing

/// A scenario with `code "FILE.swift"` and `op NAME class TYPE`, through
/// the commands as a user runs them, with the real swiftc: `check` asks
/// the compiler whether each class is what opscope's programs need and
/// says so at the `class` clause; `swift` writes the program that runs the
/// user's classes, which compiles with their file and runs on Foundation;
/// `trace` runs them on the real engine in a child and writes its
/// recording, whatever the child did; what does not run them yet refuses
/// the file at the class, and a missing file or compiler is said as such.
@Suite("opscope check, swift and trace: your own classes in a scenario")
struct OwnClassCommandTests {
    /// One compile cache for every test of this run.
    static let cache = FileManager.default.temporaryDirectory
        .appendingPathComponent("opscope-own-tests-\(UUID().uuidString)").path

    static func fixture(_ name: String) -> String {
        OpscopeBinary.packageRoot.appendingPathComponent("Tests/opscopeTests/Fixtures/own/\(name)").path
    }

    static func opscope(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try OpscopeBinary.run(
            arguments, timeout: 120, environment: ["XDG_CACHE_HOME": cache].merging(environment) { $1 })
    }

    @Test func checkPassesClassesThatFitAndKeepsThePassedCheck() throws {
        let result = try Self.opscope(["check", Self.fixture("chain.ops")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("chain.ops: ok (1 queue, 3 operations, 0 timed actions, 0 expectations)\n"))
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        // Kept: the same files again are not type-checked anew.
        let marks = try FileManager.default.subpathsOfDirectory(atPath: Self.cache + "/opscope/builds")
            .filter { $0.hasSuffix("/typechecked") }
        #expect(!marks.isEmpty)
        let again = try Self.opscope(["check", Self.fixture("chain.ops")])
        #expect(again.status == 0)
        let after = try FileManager.default.subpathsOfDirectory(atPath: Self.cache + "/opscope/builds")
            .filter { $0.hasSuffix("/typechecked") }
        #expect(after.count == marks.count)
    }

    @Test func eachClassThatDoesNotFitIsToldAtItsClause() throws {
        let result = try Self.opscope(["check", Self.fixture("shapes.ops")])
        #expect(result.status == 2)
        #expect(result.stdout.hasSuffix("shapes.ops: 4 errors\n"), "\(result.stdout)")
        let path = Self.fixture("shapes.ops")
        for expected in [
            "\(path):2:12: error: Sealed is final\nop a class Sealed\n           ^\n",
            "\(path):3:12: error: NotAnOperation is not an Operation subclass\n",
            "\(path):4:12: error: NeedsAURL cannot be made with NeedsAURL()\n",
            "note: swiftc: missing argument for parameter 'url' in call\n",
            "\(path):5:12: error: no class Missing in 'Shapes.swift'\n",
        ] {
            #expect(result.stderr.contains(expected), "\(expected)\n---\n\(result.stderr)")
        }
    }

    @Test func aCompileErrorInTheUsersFileIsSwiftcsOwnWithItsCaret() throws {
        let result = try Self.opscope(["check", Self.fixture("broken.ops")])
        #expect(result.status == 2)
        let file = Self.fixture("Broken.swift")
        #expect(
            result.stderr.contains(
                "\(file):5:26: error: cannot convert value of type 'String' to specified type 'Int'\n"
                    + "        let count: Int = \"three\"\n"), "\(result.stderr)")
        #expect(result.stderr.contains("                         ^"), "the caret under the value")
        #expect(!result.stderr.contains("Opscope"), "nothing of the probe's")
        #expect(result.stdout.hasSuffix("broken.ops: 1 error\n"), "\(result.stdout)")
    }

    @Test func aMissingFileIsToldWithWhereItWasLookedFor() throws {
        let result = try Self.opscope(["check", Self.fixture("nofile.ops")])
        #expect(result.status == 2)
        #expect(result.stderr.contains(":1:1: error: no such file 'Nowhere.swift'\n"), "\(result.stderr)")
        #expect(
            result.stderr.contains("note: looked for \(Self.fixture("Nowhere.swift")) (a 'code' path is relative"),
            "\(result.stderr)")
    }

    @Test func withoutACompilerCheckSaysWhereItLooked() throws {
        let result = try Self.opscope(
            ["check", Self.fixture("chain.ops")], environment: ["OPSCOPE_SWIFTC": "/nowhere/swiftc"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: cannot check the classes this scenario names\n"), "\(result.stderr)")
        #expect(
            result.stderr.contains("note: no swiftc found: $OPSCOPE_SWIFTC is /nowhere/swiftc, which does not exist"))
    }

    @Test func gcdHasNoFormOfTheUsersClass() throws {
        let result = try Self.opscope(["swift", "--gcd", Self.fixture("chain.ops")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'fetch' is your class Download, an Operation subclass"), "\(result.stderr)")
    }

    /// `quiz` from a script: the classes run in a child, at ×1 (their code
    /// runs in real time), and the answer is graded on that run.
    @Test func aQuizOfTheClassesIsGradedOnTheirRun() throws {
        let right = try Self.opscope(["quiz", Self.fixture("quiz.ops"), "--answer", "fetch, parse, log"])
        #expect(right.status == 0, "\(right.stdout)\(right.stderr)")
        #expect(right.stdout.contains("Running the scenario on the real engine (speed ×1)…"), "\(right.stdout)")
        #expect(right.stdout.contains("Score: 3 of 3 in the right order — all right!"), "\(right.stdout)")
        let wrong = try Self.opscope(["quiz", Self.fixture("quiz.ops"), "--answer", "parse, fetch, log"])
        #expect(wrong.status == 1, "\(wrong.stdout)\(wrong.stderr)")
        #expect(wrong.stdout.contains("parse started after fetch because it depends on fetch"), "\(wrong.stdout)")
    }

    // MARK: trace: the classes on the real engine, in a child

    /// The lines of a text trace that say `name KEY … → …`.
    static func changes(_ trace: String, of name: String) -> [String] {
        trace.split(separator: "\n").map(String.init).filter { $0.contains("  \(name)  ") }
    }

    @Test func traceRunsTheClassesInTheOrderTheirDependenciesMake() throws {
        let result = try Self.opscope(["trace", Self.fixture("chain.ops")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func seq(_ name: String, _ what: String) throws -> Int {
            let line = try #require(lines.first { $0.contains(" \(name) ") && $0.contains(what) }, "\(name) \(what)")
            return try #require(Int(line.split(separator: " ").first ?? ""))
        }
        // Foundation promises these orders: a dependent starts after its
        // dependency finished.
        #expect(try seq("fetch", "isFinished      false → true") < seq("parse", "isExecuting     false → true"))
        #expect(try seq("parse", "isFinished      false → true") < seq("log", "isExecuting     false → true"))
        #expect(result.stdout.contains("run completed at "))
        // The asynchronous class executes from its start() until it posts
        // its finish, 0.2 s of real time later (a generous bound).
        let started = try #require(
            lines.first { $0.contains(" fetch ") && $0.contains("isExecuting     false → true") })
        let ended = try #require(lines.first { $0.contains(" fetch ") && $0.contains("isFinished      false → true") })
        let time = { (line: String) in Double(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1 }
        #expect(time(ended) - time(started) >= 0.19, "\(started)\n\(ended)")
    }

    @Test func eachFormatOfATraceIsWrittenFromTheChildsRecording() throws {
        let chrome = try Self.opscope(["trace", Self.fixture("chain.ops"), "--format", "chrome"])
        #expect(chrome.status == 0, "\(chrome.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(chrome.stdout.utf8)) as? [String: Any]
        #expect(parsed?["traceEvents"] != nil)
        let jsonl = try Self.opscope(["trace", Self.fixture("chain.ops"), "--format", "jsonl"])
        #expect(jsonl.status == 0)
        let first = try #require(jsonl.stdout.split(separator: "\n").first)
        #expect(first.contains(#""kind":"header""#) && first.contains(#"class Download"#), "\(first)")
        #expect(jsonl.stdout.contains(#""kind":"end","status":"completed""#), "\(jsonl.stdout)")
    }

    @Test func aCancelOfTheUsersClassIsAnnouncedAndTheClassDecidesTheRest() throws {
        let result = try Self.opscope(["trace", Self.fixture("cancel.ops")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let fetch = Self.changes(result.stdout, of: "fetch").joined(separator: "\n")
        // Download ignores a cancel during its work: it runs to its end.
        #expect(fetch.contains("isCancelled     false → true"), "\(fetch)")
        #expect(fetch.contains("isFinished      false → true"))
        // parse, cancelled before it started, finishes without executing.
        let parse = Self.changes(result.stdout, of: "parse").joined(separator: "\n")
        #expect(parse.contains("isCancelled     false → true"))
        #expect(parse.contains("isFinished      false → true"))
        #expect(!parse.contains("isExecuting"), "\(parse)")
    }

    /// A class that never looks at isCancelled goes executing though it
    /// was cancelled before it started: the run shows it as it happened,
    /// and its recording reads back.
    @Test func aClassThatIgnoresAnEarlyCancelIsShownRunning() throws {
        let result = try Self.opscope(["trace", Self.fixture("early-cancel.ops")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let fetch = Self.changes(result.stdout, of: "fetch").joined(separator: "\n")
        let cancelled = try #require(fetch.range(of: "isCancelled     false → true"), "\(fetch)")
        let executing = try #require(fetch.range(of: "isExecuting     false → true"), "\(fetch)")
        #expect(cancelled.lowerBound < executing.lowerBound, "cancelled first, then executing: \(fetch)")
        #expect(fetch.contains("isFinished      false → true"))
    }

    @Test func aClassThatNeverTellsFoundationStallsWhatWaitsForIt() throws {
        let result = try Self.opscope(["trace", Self.fixture("untold.ops")])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "fetch: its class says isFinished is true, but Foundation was never told; parse: it waits for fetch"),
            "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "fetch (your class ForgetsToTell) says isFinished is true, but Foundation was never told: post "
                    + "willChangeValue/didChangeValue(forKey: \"isFinished\") around the change"), "\(result.stdout)")
        #expect(!Self.changes(result.stdout, of: "fetch").joined().contains("isFinished"), "no finish announced")
        #expect(!Self.changes(result.stdout, of: "parse").joined().contains("isExecuting"), "parse never runs")
    }

    @Test func whyAnswersFromTheChildsRun() throws {
        let result = try Self.opscope(["why", Self.fixture("untold.ops"), "parse"])
        #expect(result.status == 1, "never started: \(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "parse never started: the run stalled, and it waits for fetch, which never finishes"),
            "\(result.stdout)")
        let started = try Self.opscope(["why", Self.fixture("chain.ops"), "parse"])
        #expect(started.status == 0, "\(started.stdout)\(started.stderr)")
        #expect(started.stdout.contains("fetch"), "\(started.stdout)")
    }

    @Test func diffComparesTwoRunsOfTheClasses() throws {
        let result = try Self.opscope(["diff", Self.fixture("chain.ops"), Self.fixture("chain.ops")])
        #expect(result.status == 0, "the same classes, the same orders: \(result.stdout)\(result.stderr)")
        let other = try Self.opscope(["diff", Self.fixture("chain.ops"), Self.fixture("untold.ops")])
        #expect(other.status == 1, "\(other.stdout)\(other.stderr)")
    }

    /// `--repeat`: each run is a child's, and the summary is made as for
    /// any file; a run whose child crashed is said so, and counted as a
    /// run that did not end.
    @Test func repeatRunsTheClassesInAChildEachTime() throws {
        let result = try Self.opscope(["trace", Self.fixture("chain.ops"), "--repeat", "3"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.hasPrefix("3 runs of \(Self.fixture("chain.ops")) at speed 1: 3 completed\n"),
            "\(result.stdout)")
        // The dependencies order them: Foundation promises it.
        #expect(result.stdout.contains("start order: the same in every run\n  3 runs  fetch, parse, log\n"))
        let crashed = try Self.opscope(["trace", Self.fixture("crash.ops"), "--repeat", "2"])
        #expect(crashed.status == 1, "\(crashed.stdout)\(crashed.stderr)")
        #expect(
            crashed.stdout.hasPrefix(
                "2 runs of \(Self.fixture("crash.ops")) at speed 1: 2 did not end (runs 1 and 2)\n"))
        #expect(
            crashed.stderr.components(separatedBy: "the run of your classes was killed by signal 4 (SIGILL)").count
                == 3, "\(crashed.stderr)")
    }

    /// `trace --watch`: the user's Swift file is watched with the
    /// scenario; a save of it traces the classes again as they are now,
    /// and one that does not compile says swiftc's error, tracing nothing.
    @Test func traceWatchTracesTheClassesAgainAtASaveOfTheirFile() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let text = try String(contentsOfFile: Self.fixture("Crawl.swift"), encoding: .utf8)
            .replacingOccurrences(of: "0..<60", with: "0..<4")
        let code = try scratch.write("Crawl.swift", text)
        let path = try scratch.write("live.ops", try String(contentsOfFile: Self.fixture("live.ops"), encoding: .utf8))
        let watch = try OpscopeIntoFiles(
            ["trace", path, "--watch"], in: scratch, environment: ["XDG_CACHE_HOME": Self.cache])
        try watch.waitFor("run completed at", in: watch.out, timeout: 120)
        try WatchReplacesTests.save(Data(text.replacingOccurrences(of: "0..<4", with: "0..<2").utf8), to: code)
        let again = try watch.waitFor("run completed at", in: watch.out, count: 2, timeout: 120)
        #expect(
            again.contains("saved: the scenario is as it was; your classes traced again as they are now"),
            "\(again)")
        try WatchReplacesTests.save(Data((text + "\nbroken(\n").utf8), to: code)
        let refused = try watch.waitFor("your classes cannot run: 1 error in your code", in: watch.err, timeout: 120)
        #expect(refused.contains("error: cannot find 'broken' in scope"), "\(refused)")
        #expect(watch.stop(with: SIGTERM) == 143)
    }

    /// In the child, standard output is the user's as much as anyone's: a
    /// `print` there is said on standard error, never read as a line of
    /// the run (not even one that looks like JSON).
    @Test func theUsersPrintsAreTheirsNotLinesOfTheRecording() throws {
        let result = try Self.opscope(["trace", Self.fixture("chatty.ops"), "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.last?.hasSuffix(#""kind":"end","status":"completed"}"#) == true, "\(result.stdout)")
        #expect(!result.stdout.contains("hello") && !result.stdout.contains("not a line"), "\(result.stdout)")
        #expect(result.stderr.contains("hello from main()\n"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "run completed").count == 2, "one report: \(result.stderr)")
    }

    @Test func aCrashInTheUsersCodeEndsTheChildAndKeepsItsRecording() throws {
        let result = try Self.opscope(["trace", Self.fixture("crash.ops")])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains("error: the run of your classes was killed by signal 4 (SIGILL): "),
            "\(result.stderr)")
        #expect(result.stderr.contains("receiver is not yet ready to execute"), "Foundation's own words")
        #expect(result.stderr.contains("what it recorded up to then follows"))
        #expect(result.stdout.contains(" boom  isExecuting     false → true"), "\(result.stdout)")
        #expect(result.stdout.contains("run did not end"))
    }

    /// The program `opscope swift` writes, compiled with the user's file
    /// as its header says, runs the user's classes on Foundation.
    @Test func theSwiftProgramRunsTheUsersClassesOnFoundation() throws {
        let written = try Self.opscope(["swift", Self.fixture("chain.ops")])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.contains("//     swiftc -O main.swift Download.swift -o scenario && ./scenario"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-own-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try written.stdout.write(to: folder.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: Self.fixture("Download.swift"), toPath: folder.appendingPathComponent("Download.swift").path)
        let swiftc = try SwiftCompiler.find(environment: ProcessInfo.processInfo.environment).get()
        let build = try OpscopeBinary.run(
            ["-swift-version", "5", "-O", "main.swift", "Download.swift", "-o", "scenario"], timeout: 300,
            directory: folder, executable: URL(fileURLWithPath: swiftc.path))
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let run = try OpscopeBinary.run([], timeout: 60, executable: folder.appendingPathComponent("scenario"))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let starts = lines.compactMap { line in line.range(of: "] start ").map { String(line[$0.upperBound...]) } }
        // The dependencies order them: Foundation promises it.
        #expect(starts == ["fetch", "parse", "log"], "\(run.stdout)")
        #expect(run.stdout.contains("    fetch: finished\n    parse: finished\n    log: finished\n"), "\(run.stdout)")
    }
}
