import Testing

@testable import ScenarioKit

/// A dependency cycle that an `at TIME cancel` breaks is a warning naming
/// that cancel (swift-corelibs-foundation's `test_DependencyCycleBreak`:
/// op3 cancelled, it finishes without running, then op2 and op1 run); a
/// cycle nothing breaks stays an error.
@Suite struct CycleBreakLanguageTests {
    static let cycle = """
        queue q
        op op1 on q work 10ms after op2
        op op2 on q work 10ms after op3
        op op3 on q work 10ms after op1
        """

    static let brokenNote =
        "until then every operation in it waits; cancelled, 'op3' is ready whatever it waits for: it finishes without running, and what waits for it runs"

    @Test func aCancelOfAnOperationOnTheCycleMakesItAWarningNamingTheCancel() throws {
        let result = read(Self.cycle + "\nat 0ms cancel op3\n")
        #expect(
            describeAll(result) == [
                "4:29 warning: dependency cycle: op3 → op1 → op2 → op3, broken by 'at 0ms cancel op3' (line 5) | "
                    + Self.brokenNote
            ])
        let scenario = try #require(result.scenario)
        #expect(scenario.operations.map(\.dependencies.count) == [1, 1, 1])
    }

    @Test func theFirstCancelOnTheCycleIsTheOneNamed() {
        let result = read(Self.cycle + "\nat 2s cancel op3\nat 1s cancel op2\n")
        #expect(
            describeAll(result) == [
                "4:29 warning: dependency cycle: op3 → op1 → op2 → op3, broken by 'at 1s cancel op2' (line 6) | until then every operation in it waits; cancelled, 'op2' is ready whatever it waits for: it finishes without running, and what waits for it runs"
            ])
    }

    @Test func aCancelOffTheCycleOrFromACompletionBlockBreaksNothing() {
        let off = read(Self.cycle + "\nop other on q work 10ms completion cancel op3\nat 0ms cancel other\n")
        #expect(
            describeAll(off) == [
                "4:29 error: dependency cycle: op3 → op1 → op2 → op3 | every operation in a cycle waits forever"
            ])
        #expect(off.scenario == nil)
    }

    @Test func aCycleTheCancelDoesNotReachStaysAnError() {
        // a waits for b and for c; b and c each wait for a. Cancelling b
        // breaks a → b → a, not a → c → a.
        let source = """
            op a work 1ms after b, c
            op b work 1ms after a
            op c work 1ms after a
            at 0ms cancel b
            """
        let result = read(source)
        #expect(
            describeAll(result) == [
                "2:21 warning: dependency cycle: b → a → b, broken by 'at 0ms cancel b' (line 4) | until then every operation in it waits; cancelled, 'b' is ready whatever it waits for: it finishes without running, and what waits for it runs",
                "3:21 error: dependency cycle: c → a → c | every operation in a cycle waits forever",
            ])
        #expect(result.scenario == nil)
    }

    @Test func theWarningPointsAtTheNameThatClosesTheCycle() {
        let file = SourceFile(path: "c.ops", text: Self.cycle + "\nat 0ms cancel op3\n")
        let text = DiagnosticPrinter().renderAll(ScenarioReader.read(file), file: file, color: false)
        #expect(
            text == """
                c.ops:4:29: warning: dependency cycle: op3 → op1 → op2 → op3, broken by 'at 0ms cancel op3' (line 5)
                op op3 on q work 10ms after op1
                                            ^
                note: \(Self.brokenNote)

                """)
    }
}
