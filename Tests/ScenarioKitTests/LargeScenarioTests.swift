import Testing

@testable import ScenarioKit

/// Large generated files: linear work and no recursion, whatever the size.
@Suite struct LargeScenarioTests {
    /// 10 000 operations in 100 layers of 100 on 4 queues; each operation
    /// after the first layer waits for two of the layer before, and the
    /// first two of each layer from the third on also for one two layers
    /// back: 19 996 dependencies.
    static func layered() -> (text: String, dependencyCount: Int) {
        var lines = ["title \"layered\"", "queue q0 max 4", "queue q1", "queue q2 serial", "queue q3"]
        var dependencyCount = 0
        for i in 0..<10_000 {
            let (layer, position) = (i / 100, i % 100)
            var line = "op n\(i) on q\(i % 4) work 1ms"
            if layer > 0 {
                var deps = [(layer - 1) * 100 + position, (layer - 1) * 100 + (position + 1) % 100]
                if layer > 1 && position < 2 { deps.append((layer - 2) * 100 + position) }
                line += " after " + deps.map { "n\($0)" }.joined(separator: ", ")
                dependencyCount += deps.count
            }
            lines.append(line)
        }
        return (lines.joined(separator: "\n"), dependencyCount)
    }

    @Test func tenThousandOperationsValidateWithoutDiagnostics() throws {
        let (text, dependencyCount) = Self.layered()
        #expect(dependencyCount == 19_996)
        let scenario = try #require(clean(text))
        #expect(scenario.operations.count == 10_000)
        #expect(scenario.operations.reduce(0) { $0 + $1.dependencies.count } == dependencyCount)
        #expect(scenario.operations[9_999].dependencies == [OperationID(9_899), OperationID(9_800)])
    }

    /// A fan-out's operations, each after the same roots, hold one list
    /// between them (a million of them would hold a million copies); one
    /// dependency is kept with no list at all.
    @Test func operationsAfterTheSameOnesShareOneList() throws {
        let text =
            "op root work 1ms\nop second work 1ms\n"
            + (0..<100).map { "op f\($0) work 1ms after root, second" }.joined(separator: "\n")
            + "\n" + (0..<100).map { "op g\($0) work 1ms after root" }.joined(separator: "\n")
        let scenario = try #require(clean(text))
        let fanned = scenario.operations[2..<102]
        let lists = Set(fanned.map(\.dependencies.storageAddress))
        #expect(lists.count == 1)
        #expect(lists.allSatisfy { $0 != nil }, "two dependencies are a list")
        #expect(scenario.operations[101].dependencies == [OperationID(0), OperationID(1)])
        let single = scenario.operations[102..<202]
        #expect(single.allSatisfy { $0.dependencies.storageAddress == nil && $0.dependencies == [OperationID(0)] })
    }

    /// op0 waits for op9999, which waits for op9998, … down to op1, which
    /// waits for op0: one cycle through all 10 000 operations.
    @Test func aTenThousandLongCycleIsReportedOnceWithoutRecursion() {
        var lines = ["op op0 work 1ms after op9999"]
        for i in 1..<10_000 { lines.append("op op\(i) work 1ms after op\(i - 1)") }
        let result = read(lines.joined(separator: "\n"))
        #expect(result.diagnostics.count == 1)
        let message = result.diagnostics.first?.message ?? ""
        #expect(message.hasPrefix("dependency cycle: op1 → op0 → op9999 → op9998 → "))
        #expect(message.hasSuffix(" → op2 → op1"))
        #expect(message.filter { $0 == "→" }.count == 10_000)
        #expect(result.diagnostics.first?.location == Loc(line: 2, column: 23))
    }

    @Test func aLongChainBehindANeverFinishingOperationWarnsForEachOperationOnce() throws {
        var lines = ["op op0 async 1s never-finishes"]
        for i in 1..<5_000 { lines.append("op op\(i) work 1ms after op\(i - 1)") }
        let result = read(lines.joined(separator: "\n"))
        #expect(result.scenario != nil)
        // Every one is counted; the first hundred are kept, in file order.
        #expect(result.warningCount == 4_999)
        #expect(result.diagnostics.count == DiagnosticLimit.perFile)
        #expect(result.omittedWarnings == 4_999 - DiagnosticLimit.perFile)
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(
            result.diagnostics.last?.message
                == "'op100' can never start: its dependency 'op99' waits for 'op0', which never finishes")
    }
}
