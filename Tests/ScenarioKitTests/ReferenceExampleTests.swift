import Testing

@testable import ScenarioKit

/// The example of SCENARIO-LANGUAGE.md, read in full.
@Suite struct ReferenceExampleTests {
    static let source = """
        title "Download, parse, save"
        note "Parsing waits for the download: watch it sit in Pending."

        queue net  max 2 qos utility
        queue disk serial
        queue ui   main

        op fetch  on net  work 1.2s   priority high qos userInitiated
        op thumbs on net  blocks 3 x 300ms
        op parse  on net  work 400ms  after fetch completion
        op upload on net  async 2s    after parse
        op save   on disk work 300ms  after parse, thumbs ignores-cancel
        op render on ui   work 50ms   after save
        barrier flush on disk work 100ms

        at 500ms cancel thumbs
        at 2s   suspend net
        at 3s   resume net
        at 3s   max net 4

        expect fetch before parse
        expect peak net 2
        expect cancelled thumbs
        """

    @Test func readsWithoutDiagnostics() throws {
        let scenario = try #require(clean(Self.source))
        #expect(scenario.title == "Download, parse, save")
        #expect(scenario.notes == ["Parsing waits for the download: watch it sit in Pending."])
        #expect(scenario.queues.map(\.name) == ["net", "disk", "ui"])
        #expect(scenario.queues[0].cap == .limit(2))
        #expect(scenario.queues[0].qos == .utility)
        #expect(scenario.queues[1].cap == .limit(1))
        #expect(scenario.queues[2].isMain)
        #expect(scenario.operations.map(\.name) == ["fetch", "thumbs", "parse", "upload", "save", "render", "flush"])
        let fetch = scenario.operations[0]
        #expect(fetch.body == .work(.milliseconds(1200)))
        #expect(fetch.priority == .high)
        #expect(fetch.qos == .userInitiated)
        #expect(fetch.queue == QueueID(0))
        #expect(scenario.operations[1].body == .blocks([ms(300), ms(300), ms(300)]))
        #expect(scenario.operations[2].dependencies == [OperationID(0)])
        #expect(scenario.operations[2].completion == [])
        #expect(scenario.operations[3].body == .async(.seconds(2)))
        #expect(scenario.operations[4].dependencies == [OperationID(2), OperationID(1)])
        #expect(scenario.operations[4].ignoresCancel)
        #expect(scenario.operations[4].queue == QueueID(1))
        #expect(scenario.operations[5].queue == QueueID(2))
        #expect(scenario.operations[6].body == .barrier(ms(100)))
        #expect(scenario.operations[6].queue == QueueID(1))
        #expect(
            scenario.actions.map(\.action) == [
                .cancel(OperationID(1)), .suspend(QueueID(0)), .resume(QueueID(0)), .setCap(QueueID(0), .limit(4)),
            ])
        #expect(scenario.actions.map(\.time) == [ms(500), .seconds(2), .seconds(3), .seconds(3)])
        #expect(
            scenario.expectations.map(\.claim) == [
                .before(OperationID(0), OperationID(2)), .peak(QueueID(0), 2), .cancelled(OperationID(1)),
            ])
        #expect(scenario.expectations.map(\.text) == ["fetch before parse", "peak net 2", "cancelled thumbs"])
        #expect(scenario.operations[0].location == Loc(line: 8, column: 4))
    }
}
