import Foundation
import ScenarioKit
import Testing

/// `opscope why RUN X Y` asked of every pair of a stalled run (one
/// recording, so every answer reads the same run): the first line's yes or
/// no is the dependency graph's, and no later line says X waits for Y when
/// the graph says it does not (a slot Y holds is named as a slot).
@Suite("why: every pair of a stalled run agrees with the dependency graph")
struct WhyEveryPairTests {
    static let fixtures = "Tests/opscopeTests/Fixtures/"

    /// The scenario and a recording of one run of it.
    static func recorded(_ file: String) throws -> (Scenario, String) {
        let text = try String(contentsOfFile: OpscopeBinary.packageRoot.path + "/" + file, encoding: .utf8)
        let scenario = try #require(ScenarioReader.read(text).scenario)
        let trace = try OpscopeBinary.run(["trace", "--format", "jsonl", "--speed", "4", file], timeout: 60)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("why-pairs-\(UUID()).jsonl").path
        try trace.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return (scenario, path)
    }

    /// A line that says `x` waits for `y` as a dependency: "waits for y"
    /// then the end of the name (not "waits for a slot …").
    static func saysWaitsFor(_ line: String, _ y: String) -> Bool {
        var rest = Substring(line)
        while let found = rest.range(of: "waits for \(y)") {
            let after = rest[found.upperBound...].first
            if after == nil || !(after!.isLetter || after!.isNumber || after! == "-" || after! == "_") { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    static func check(_ scenario: Scenario, _ recording: String, pairs: [(OperationID, OperationID)]) throws {
        for (x, y) in pairs {
            let (nx, ny) = (scenario.opName(x), scenario.opName(y))
            let result = try OpscopeBinary.run(["why", recording, nx, ny], timeout: 30)
            let lines = result.stdout.split(separator: "\n").map(String.init)
            let waits = scenario.dependencyPath(from: x, to: y) != nil
            let first = try #require(lines.first, "why \(nx) \(ny): \(result.stderr)")
            #expect(first.hasPrefix(waits ? "yes:" : "no:"), "why \(nx) \(ny): \(first)")
            // 0 only when X waits for Y and started; a stalled X never did.
            let started = !result.stdout.contains("\(nx) never started")
            #expect(result.status == (waits && started ? 0 : 1), "why \(nx) \(ny): exit \(result.status)")
            guard !waits else { continue }
            for line in lines.dropFirst() {
                #expect(
                    !saysWaitsFor(line, ny) || line.contains("slot"),
                    "why \(nx) \(ny) says no, then: \(line)")
            }
        }
    }

    @Test func everyPairOfASmallStall() throws {
        let (scenario, recording) = try Self.recorded(Self.fixtures + "slots-small.ops")
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let ids = scenario.operations.indices.map { OperationID($0) }
        let pairs = ids.flatMap { x in ids.filter { $0 != x }.map { (x, $0) } }
        try Self.check(scenario, recording, pairs: pairs)
    }

    /// The fifty downloads: every operation against the three that hold
    /// dl's slots for good and against what it depends on.
    @Test func everyDownloadAgainstTheHoldersAndItsDependencies() throws {
        let (scenario, recording) = try Self.recorded(Self.fixtures + "podcast-slots.ops")
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let holders = ["ep07", "ep12", "ep19"].compactMap(scenario.operationID(named:))
        #expect(holders.count == 3)
        var pairs: [(OperationID, OperationID)] = []
        for i in scenario.operations.indices {
            let x = OperationID(i)
            for y in holders + scenario[operation: x].dependencies where y != x { pairs.append((x, y)) }
        }
        try Self.check(scenario, recording, pairs: pairs)
    }
}
