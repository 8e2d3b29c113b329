import Foundation
import Testing

/// A stall whose ready operations wait for a slot of their queue, held for
/// good by operations cancelled before they started whose `start()` then
/// never posted `isFinished`: every message says "a slot", names every
/// holder, and never calls a holder a dependency.
@Suite("slots held for good, in trace and why")
struct SlotCauseTests {
    /// 50 downloads on `dl max 3`; ep07, ep12 and ep19 hold the three slots.
    static let podcast = "Tests/opscopeTests/Fixtures/podcast-slots.ops"
    /// a3 and a5 hold both slots of dl; b1 after a7, b2 after b1, c1 after a1.
    static let small = "Tests/opscopeTests/Fixtures/slots-small.ops"
    static let held = "3 of 3 slots held: ep07, ep12, ep19 started and never finished"

    @Test func theStallReportSaysWhoHoldsTheSlotsAndNamesNoDependency() throws {
        let result = try OpscopeBinary.run(["trace", "--verbose", Self.podcast])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("    ep20: it waits for a slot of dl: \(Self.held)"), "\(result.stdout.suffix(3000))")
        #expect(
            lines.contains("  31 operations held: dl has no free slot: \(Self.held) — ep20, ep21, ep22 and 28 more"),
            "\(result.stdout.suffix(3000))")
        #expect(lines.contains("    ep07: it never posted isFinished"))
        #expect(!result.stdout.contains("waits for ep07"), "\(result.stdout.suffix(3000))")
        #expect(
            lines.contains("  ✗ expect finished ep50 — ep50 never finished (it waits for a slot of dl: \(Self.held))"),
            "\(result.stdout.suffix(1000))")
    }

    @Test func whyNamesTheSlotHolderAsSuchAndNotAsADependency() throws {
        let result = try OpscopeBinary.run(["why", Self.podcast, "ep20", "ep07"])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                no: ep20 does not wait for ep07, directly or through others; it has no dependency
                ep20 never started: the run stalled, and it waits for a slot of dl: \(Self.held)
                in this run, ep07 holds a slot of dl that ep20 waits for: it started and never finished

                """, "\(result.stdout)")
    }

    /// Every pair of the small fixture, asked of one recording: `yes` exactly
    /// when the file's `after` clauses make X wait for Y, and every "waits
    /// for NAME" names a dependency of X, direct or through others; the
    /// only other operations named are the slot holders, as holders.
    @Test func everyPairsAnswerAgreesWithTheDependencyGraph() throws {
        let trace = try OpscopeBinary.run(["trace", "--format", "jsonl", Self.small])
        #expect(trace.status == 1)
        let recording = FileManager.default.temporaryDirectory
            .appendingPathComponent("slots-small-\(ProcessInfo.processInfo.processIdentifier).jsonl")
        try trace.stdout.write(to: recording, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: recording) }
        let direct: [String: [String]] = ["b1": ["a7"], "b2": ["b1"], "c1": ["a1"]]
        func dependencies(of op: String) -> Set<String> {
            var found = Set<String>()
            var stack = direct[op] ?? []
            while let d = stack.popLast() {
                if found.insert(d).inserted { stack += direct[d] ?? [] }
            }
            return found
        }
        let names = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "b1", "b2", "c1"]
        let holders = ["a3", "a5"]
        // Waits for a slot of dl: itself, or what its dependencies end at.
        let waitsForASlot: Set<String> = ["a6", "a7", "b1", "b2"]
        let waitsFor = try NSRegularExpression(pattern: #"waits for ([a-z][0-9])\b"#)
        for x in names {
            for y in names where y != x {
                let result = try OpscopeBinary.run(["why", recording.path, x, y])
                let out = result.stdout
                let lines = out.split(separator: "\n").map(String.init)
                let deps = dependencies(of: x)
                let first = try #require(lines.first, "why \(x) \(y): \(result.stderr)")
                #expect(first.hasPrefix(deps.contains(y) ? "yes: " : "no: "), "why \(x) \(y): \(out)")
                for line in lines {
                    let range = NSRange(line.startIndex..., in: line)
                    for match in waitsFor.matches(in: line, range: range) {
                        let named = String(line[Range(match.range(at: 1), in: line)!])
                        #expect(deps.contains(named), "why \(x) \(y): '\(named)' is no dependency of \(x): \(line)")
                    }
                }
                let holdsLine = lines.first { $0.contains(" holds a slot of dl that \(x) waits for") }
                #expect(
                    (holdsLine != nil) == (holders.contains(y) && waitsForASlot.contains(x)), "why \(x) \(y): \(out)")
                if waitsForASlot.contains(x) {
                    #expect(
                        out.contains("a slot of dl: 2 of 2 slots held: a3, a5 started and never finished")
                            || out.contains("a7, which never finishes"), "why \(x) \(y): \(out)")
                }
            }
        }
    }
}
