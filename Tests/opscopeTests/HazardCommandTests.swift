import Foundation
import Testing

/// The app-shaped hazard files, through the real program: `check` warns
/// with the rule, the path and the place; a passing run that blocked the
/// main thread says so, in text and in JSON Lines, and read back.
@Suite("hazards, found before and after the run")
struct HazardCommandTests {
    static let folder = "Tests/opscopeTests/Fixtures/hazards/"
    static let freeze = folder + "launch-freeze.ops"
    static let inversion = folder + "priority-inversion.ops"
    static let export = folder + "export-blocks-main.ops"

    @Test func checkWarnsAboutTheLaunchFreezeAtTheWait() throws {
        let result = try OpscopeBinary.run(["check", Self.freeze])
        #expect(result.status == 0, "a warning is no error: \(result.stderr)")
        #expect(
            result.stdout
                == "\(Self.freeze): ok with 1 warning (3 queues, 10 operations, 1 timed action, 5 expectations)\n")
        #expect(
            result.stderr == """
                \(Self.freeze):25:15: warning: 'wait badge' at 100ms deadlocks the main thread: badge depends on setup → render, and render is on the main queue, which needs the main thread that waits
                at 100ms wait badge
                              ^
                note: render cannot be ready before 350ms, 250ms after the wait's time: the main queue gets it after the wait, which never returns (nothing on the path is cancelled)

                """, "\(result.stderr)")
    }

    @Test func checkWarnsAboutTheInversionAtTheDependency() throws {
        let result = try OpscopeBinary.run(["check", Self.inversion])
        #expect(result.status == 0)
        #expect(
            result.stderr.hasPrefix(
                "\(Self.inversion):54:36: warning: priority inversion: refresh (priority veryHigh) depends on "
                    + "log-session (priority veryLow) through token, and log-session is queued behind 40 operations "
                    + "of lower priority than refresh on serial queue 'jobs': job01, job02, job03, …\n"
                    + "op refresh on net async 50ms after token priority veryHigh\n"
                    + String(repeating: " ", count: 35) + "^\n"), "\(result.stderr)")
        #expect(result.stderr.contains("note: Foundation does not raise a dependency's priority"))
    }

    /// The freeze runs as the warning says: the wait never returns, and
    /// the report counts it as a block to the run's end.
    @Test func theFreezeRunsAsWarned() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "4", Self.freeze], timeout: 60)
        #expect(result.status == 0, "badge is expected stuck: \(result.stdout.suffix(2000))")
        #expect(result.stdout.contains("badge.waitUntilFinished() started"))
        #expect(!result.stdout.contains("badge.waitUntilFinished() returned"))
        #expect(result.stdout.contains("main thread blocked longer than 100ms (1 time):"))
        #expect(
            result.stdout.range(
                of:
                    #"\n  blocked from 0\.\d{3}s and never returned \([0-9.]+m?s until the run ended\) waiting for badge \(badge\.waitUntilFinished\(\), 'at 100ms wait badge', line 25\)\n"#,
                options: .regularExpression) != nil, "\(result.stdout.suffix(1500))")
    }

    /// The seconds of `blocked 1.701s from 0.101s`: generous bounds only
    /// (export's 1.8 s of work, the wait from 100 ms).
    static func blockedSeconds(_ text: String) throws -> Double {
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("  blocked ") })
        let number = try #require(line.dropFirst("  blocked ".count).split(separator: "s ").first)
        return try #require(Double(number))
    }

    @Test func aPassingRunThatBlockedTheMainThreadSaysSo() throws {
        let result = try OpscopeBinary.run(["trace", Self.export], timeout: 60)
        #expect(result.status == 0, "\(result.stdout.suffix(1500))")
        let out = result.stdout
        #expect(out.contains("2 of 2 expectations held"))
        let report = try #require(out.range(of: "main thread blocked longer than 100ms (1 time):\n"))
        let verdicts = try #require(out.range(of: "expectations:\n"))
        #expect(report.lowerBound < verdicts.lowerBound, "the block comes before the verdicts")
        let seconds = try Self.blockedSeconds(String(out[report.upperBound...]))
        #expect(seconds > 1.0 && seconds < 5.0, "blocked \(seconds)s")
        #expect(out.contains("waiting for export (export.waitUntilFinished(), 'at 100ms wait export', line 11)"))
    }

    @Test func theJSONLinesSumTheBlockUpAfterTheEndAndReadItBack() throws {
        let result = try OpscopeBinary.run(["trace", "--format", "jsonl", Self.export], timeout: 60)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let last = try #require(lines.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "main-blocked")
        #expect(object["action"] as? String == "wait")
        #expect(object["target"] as? String == "export")
        #expect(object["line"] as? Int == 11)
        let seconds = try #require(object["seconds"] as? Double)
        #expect(seconds > 1.0 && seconds < 5.0)
        #expect(lines.dropLast().last?.contains(#""kind":"end""#) == true)
        // The report, on standard error, says it too.
        #expect(result.stderr.contains("main thread blocked longer than 100ms (1 time):"))

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("blocked-\(UUID()).jsonl").path
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let again = try OpscopeBinary.run(["trace", "--format", "jsonl", path], timeout: 30)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == result.stdout, "written again, the same bytes")
    }
}
