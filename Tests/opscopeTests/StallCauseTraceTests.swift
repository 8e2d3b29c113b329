import Foundation
import Testing

/// A stall told by root cause, in the real program: a 205-operation album
/// screen (`Fixtures/album-deadlock.ops`) whose grid suspends itself and
/// whose only resume waits behind that suspension. `trace` names the cycle
/// in a few lines; `--verbose` adds each stuck operation; the recording
/// carries the causes and reads back.
@Suite("a stall by root cause, in trace")
struct StallCauseTraceTests {
    static let file = "Tests/opscopeTests/Fixtures/album-deadlock.ops"
    /// a12-p4 … a12-p120 on photos, a12-sheet and a12-badge behind them.
    static let stuck = (4...120).map { "a12-p\($0)" } + ["a12-sheet", "a12-badge"]

    /// The report's lines from "run stalled" on.
    static func report(_ stdout: String) throws -> [String] {
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("run stalled at ") }, "\(stdout.suffix(2000))")
        return Array(lines[start...].prefix { !$0.isEmpty })
    }

    static func expectTheCycle(_ report: [String]) {
        #expect(report.count <= 5, "\(report)")
        let text = report.joined(separator: "\n")
        #expect(
            text.contains(
                "119 operations held by a deadlock: photos is suspended, and what would resume it waits behind it "
                    + "— a12-p4, a12-p5, a12-p6 and 116 more"), "\(text)")
        #expect(
            text.range(
                of: #"photos suspended at \d+\.\d{3}s by a12-p1's completion block \(line \d+\); its only resume is "#
                    + #"a12-sheet's completion block \(line \d+\); a12-sheet waits for a12-p4, on photos"#,
                options: .regularExpression) != nil, "\(text)")
    }

    @Test func traceNamesTheDeadlockAsItsCycleInAtMostFiveLines() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "4", Self.file])
        #expect(result.status == 1, "a stall no 'expect stuck' names: \(result.stderr)")
        let report = try Self.report(result.stdout)
        Self.expectTheCycle(report)
        #expect(report.last == "  (trace --verbose adds each stuck operation with its own reason)")
        // The stream's end groups its clauses too: one part per reason.
        let end = try #require(result.stdout.split(separator: "\n").first { $0.contains("  end  ") })
        #expect(end.count < 400, "\(end)")
    }

    @Test func theRecordingCarriesTheCausesAndReadsBackWithEveryStuckOperationOnRequest() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "4", "--format", "jsonl", Self.file])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
        let end = try #require(
            lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let stuck = try #require(end["stuck"] as? [String: String])
        #expect(stuck.count == Self.stuck.count)
        #expect(stuck["a12-p4"] == "its queue photos is suspended and nothing resumes it")
        let causes = try #require(end["causes"] as? [[String: Any]])
        #expect(causes.count == 1)
        #expect(causes[0]["kind"] as? String == "deadlock")
        #expect(causes[0]["count"] as? Int == 119)
        #expect(causes[0]["first"] as? [String] == ["a12-p4", "a12-p5", "a12-p6"])
        let suspended = try #require(causes[0]["suspended"] as? [String: Any])
        #expect(suspended["origin"] as? String == "completion")
        #expect(suspended["by"] as? String == "a12-p1")
        let resumes = try #require(causes[0]["resumes"] as? [[String: Any]])
        #expect(resumes.count == 1)
        #expect(resumes[0]["by"] as? String == "a12-sheet")
        #expect(resumes[0]["cycle"] as? Bool == true)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("album-\(UUID()).jsonl").path
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let again = try OpscopeBinary.run(["trace", path, "--format", "jsonl"])
        #expect(again.stdout == result.stdout, "written again, byte for byte")
        let verbose = try OpscopeBinary.run(["trace", path, "--verbose"])
        #expect(verbose.status == 1)
        let report = try Self.report(verbose.stdout)
        Self.expectTheCycle(Array(report.prefix(3)))
        #expect(report[3] == "  each stuck operation:")
        let listed = report.dropFirst(4).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(listed.count == Self.stuck.count)
        #expect(Set(listed.map { String($0.prefix { $0 != ":" }) }) == Set(Self.stuck))
        #expect(listed.contains("a12-sheet: it waits for a12-p4, which never finishes"))
        #expect(listed.contains("a12-p120: its queue photos is suspended and nothing resumes it"))
    }
}
