import Foundation
import Testing

@testable import ScenarioKit

/// `opscope swift --gcd`: the graph with plain GCD, and what GCD does
/// differently said for the scenario at hand.
@Suite struct GCDProgramPrinterTests {
    func scenario(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Scenario {
        try #require(ScenarioReader.read(source).scenario, sourceLocation: sourceLocation)
    }

    @Test func aDifferenceIsSaidOnlyWhereTheScenarioHasTheFeature() throws {
        let chain = try scenario("queue q serial\nop a on q work 10ms\nop b on q work 10ms after a\n")
        let notes = GCDProgramPrinter.differences(chain)
        #expect(notes.count == 1)
        #expect(notes[0].hasPrefix("A work item has no dependencies"))

        let everything = try scenario(
            """
            queue net max 2
            queue main main
            op a on net work 100ms priority high
            op b on net async 100ms
            op c on main work 10ms
            at 10ms cancel a
            at 20ms cancel-all net
            at 30ms max net 3
            at 40ms start c
            """)
        let said = GCDProgramPrinter.differences(everything).joined(separator: "\n")
        for words in [
            "has no cap", "cannot change while it runs", "no queuePriority", "only sets isCancelled",
            "cannot cancel what it holds", "its own callback", "started by hand",
        ] {
            #expect(said.contains(words), "missing: \(words)")
        }
        #expect(!said.contains("no dependencies"))
    }

    @Test func theProgramIsMadeOfGCDAndNoOperation() throws {
        let program = GCDProgramPrinter(sourceName: "x.ops").program(
            for: try scenario(
                """
                queue net max 2
                queue disk serial suspended
                op a on net work 100ms qos userInitiated
                op b on net async 100ms completion cancel c
                barrier flush on disk work 10ms
                op c on disk work 10ms after flush, a
                at 50ms resume disk
                """))
        #expect(
            !program.contains("Operation()") && !program.contains(": Operation,")
                && !program.contains("OperationQueue("))
        #expect(program.contains("let netSlots = DispatchSemaphore(value: 2)"))
        #expect(program.contains("let gate = DispatchQueue(label: \"scenario.gate\")"))
        #expect(program.contains("DispatchWorkItem(qos: .userInitiated, flags: .enforceQoS, block: {"))
        #expect(program.contains("flags: .barrier, block: {"))
        #expect(program.contains("diskHold.suspend()"))
        #expect(program.contains("diskHold.resume()"))
        #expect(program.contains("c.submit(to: disk, after: [flush, a])"))
        // A completion block may name a step declared after its own: every
        // step is declared before any work item.
        let lines = program.split(separator: "\n")
        let lastDeclaration = try #require(lines.lastIndex { $0.contains("= Step(") })
        let firstItem = try #require(lines.firstIndex { $0.contains(".item = DispatchWorkItem") })
        #expect(lastDeclaration < firstItem)
        #expect(program.contains("// What GCD does differently here:"))
    }

    /// Compiled and run: a dependent starts after its dependency ended, no
    /// more than the cap run at once, and a work item cancelled before it
    /// ran is skipped while what waits for it still runs.
    @Test func itRunsAsTheGraphSays() throws {
        let program = GCDProgramPrinter().program(
            for: try scenario(
                """
                queue net max 2
                op a on net work 200ms
                op b on net work 200ms
                op c on net work 200ms
                op d on net work 50ms after c
                op e on net work 10ms after d
                at 100ms cancel d
                """))
        let result = try Swiftc.run(["-swift-version", "6"], program: program, thenRun: true)
        #expect(result.status == 0, "\(result.output)")
        let output = result.output
        #expect(output.contains("the scenario is over"), "\(output)")
        #expect(output.contains("  d: skipped"))
        #expect(output.contains("  e: finished"))
        // c waits for a slot: it starts only once a or b finished.
        func time(_ line: String) -> Double? {
            output.split(separator: "\n").first { $0.hasSuffix("] " + line) }
                .flatMap { Double($0.dropFirst().prefix { $0 != "s" }.trimmingCharacters(in: .whitespaces)) }
        }
        let cStart = try #require(time("start c"))
        let firstFinish = try #require([time("finish a"), time("finish b")].compactMap { $0 }.min())
        #expect(cStart >= firstFinish)
        let eStart = try #require(time("start e"))
        #expect(eStart >= (time("finish c") ?? .infinity))
    }
}
