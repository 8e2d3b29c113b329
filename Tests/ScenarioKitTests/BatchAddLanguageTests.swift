import Testing

@testable import ScenarioKit

/// `add A, B, …`: several operations of one queue in one `addOperations`
/// call, at the start (a top-level statement) or at a time.
@Suite struct BatchAddLanguageTests {
    static let serial = """
        queue q serial
        op normal on q work 50ms
        op low on q work 50ms priority low
        op top on q work 50ms priority veryHigh
        op alone on q work 50ms
        op bottom on q work 50ms priority veryLow
        """

    @Test func aTopLevelAddIsOneBatchOfTheStartInTheOrderItLists() throws {
        let scenario = try #require(clean(Self.serial + "\nadd top, low, bottom\n"))
        let ids = ["top", "low", "bottom"].map { scenario.operationID(named: $0)! }
        #expect(scenario.startBatches.map(\.operations) == [ids])
        #expect(scenario.startBatches[0].location == Loc(line: 7, column: 1))
        #expect(scenario.actions.isEmpty)
        // The batch takes the place of its first operation in file order
        // (low, declared before top), its operations in the listed order.
        #expect(
            scenario.addedAtStart.map { scenario[operation: $0].name } == ["normal", "top", "low", "bottom", "alone"])
        #expect(scenario.startBatchBeginning == [ids[0]: 0])
        #expect(scenario.addedLater.isEmpty)
    }

    @Test func anAddOfSeveralAfterAtIsOneAction() throws {
        let scenario = try #require(clean(Self.serial + "\nat 20ms add normal, low\nat 30ms add top\n"))
        let normal = scenario.operationID(named: "normal")!
        let low = scenario.operationID(named: "low")!
        let top = scenario.operationID(named: "top")!
        #expect(scenario.actions.map(\.action) == [.addBatch([normal, low]), .add(top)])
        #expect(scenario.addedLater == [normal, low, top])
        #expect(scenario.actions[0].action.addedOperations == [normal, low])
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let source: String
        let expected: [String]
        init(_ name: String, _ source: String, _ expected: [String]) {
            self.name = name
            self.source = source
            self.expected = expected
        }
        var testDescription: String { name }
    }

    static let misuse: [Case] = [
        .init(
            "one operation at the start", "op a work 1s\nadd a",
            [
                "2:1 error: 'add' at the top level adds two or more operations in one call | an operation is added at the start on its own anyway; 'at TIME add OP' adds it later"
            ]),
        .init(
            "unknown operation", "op fetch work 1s\nop parse work 1s\nadd fetch, prase",
            ["3:12 error: unknown operation 'prase' | did you mean 'parse'?"]),
        .init(
            "a queue named", "queue q\nop a on q work 1s\nop b on q work 1s\nadd a, q",
            ["4:8 error: 'q' is a queue, not an operation"]),
        .init(
            "twice in one add", "op a work 1s\nop b work 1s\nadd a, b, a",
            [
                "3:11 error: 'a' is added twice | it is first added on line 3; Foundation stops the program when an operation is added twice"
            ]),
        .init(
            "in two adds", "op a work 1s\nop b work 1s\nop c work 1s\nadd a, b\nat 1s add c, a",
            [
                "5:14 error: 'a' is added twice | it is first added on line 4; Foundation stops the program when an operation is added twice"
            ]),
        .init(
            "in a batch and alone", "op a work 1s\nop b work 1s\nat 1s add a\nat 2s add b, a",
            [
                "4:14 error: 'a' is added twice | it is first added on line 3; Foundation stops the program when an operation is added twice"
            ]),
        .init(
            "two queues", "queue q\nqueue r\nop a on q work 1s\nop b on r work 1s\nat 1s add a, b",
            [
                "5:14 error: 'b' is on queue 'r', 'a' on 'q': one call adds to one queue | 'addOperations' is a method of one queue: write one 'add' for each queue"
            ]),
        .init(
            "a barrier", "op a work 1s\nbarrier b\nadd a, b",
            [
                "3:8 error: 'b' is a barrier: it cannot be added with other operations in one call | 'addBarrierBlock' adds a barrier on its own; 'addOperations' takes operations"
            ]),
        .init(
            "started by hand", "op a work 1s\nop b work 1s\nadd a, b\nat 1s start a",
            [
                "4:13 error: 'a' is started by hand and added to a queue | it is added on line 3; Foundation stops the program either way: start() of an operation in a queue stops it (something is trying to start the receiver simultaneously from more than one thread), and so does adding one that start() finished | an operation started by hand belongs to no queue: leave out the 'add' or the 'start'"
            ]),
        .init(
            "no comma", "op a work 1s\nop b work 1s\nat 1s add a b",
            ["3:13 error: unexpected 'b' in 'at' statement"]),
        .init("nothing after add", "op a work 1s\nadd", ["2:4 error: expected a name after 'add'"]),
    ]

    @Test(arguments: misuse)
    func misuseIsAnErrorAtItsName(_ c: Case) {
        let result = read(c.source)
        #expect(describeAll(result) == c.expected)
        #expect(result.scenario == nil)
    }

    @Test func theDiagnosticPointsAtTheNameWithACaret() {
        let file = SourceFile(path: "b.ops", text: "queue q\nqueue r\nop a on q work 1s\nop b on r work 1s\nadd a, b\n")
        let text = DiagnosticPrinter().renderAll(ScenarioReader.read(file), file: file, color: false)
        #expect(
            text == """
                b.ops:5:8: error: 'b' is on queue 'r', 'a' on 'q': one call adds to one queue
                add a, b
                       ^
                note: 'addOperations' is a method of one queue: write one 'add' for each queue

                """)
    }

    @Test func theCanonicalPrintWritesTheBatchesAndReadsBackTheSame() throws {
        let source = Self.serial + "\nadd top, low\nat 20ms add normal, bottom\nat 30ms add alone\n"
        let scenario = try #require(clean(source))
        let printed = ScenarioPrinter().source(for: scenario)
        #expect(
            printed == """
                queue q serial

                op normal on q work 50ms
                op low on q work 50ms priority low
                op top on q work 50ms priority veryHigh
                op alone on q work 50ms
                op bottom on q work 50ms priority veryLow

                add top, low

                at 20ms add normal, bottom
                at 30ms add alone

                """)
        let again = try #require(clean(printed))
        #expect(again.withoutLocations == scenario.withoutLocations)
    }

    @Test func theSwiftProgramMakesOneAddOperationsCallPerBatch() throws {
        let scenario = try #require(clean(Self.serial + "\nadd top, low\nat 20ms add normal, bottom\n"))
        let program = SwiftProgramPrinter().program(for: scenario)
        let calls = program.split(separator: "\n").filter { $0.contains("addOperation") }.map {
            String($0.drop { $0 == " " })
        }
        #expect(
            calls == [
                "q.addOperations([top, low], waitUntilFinished: false)  // one call: the queue picks among all of them",
                "q.addOperation(alone)",
                "q.addOperations([normal, bottom], waitUntilFinished: false)  // one call: the queue picks among all of them",
            ])
    }
}
