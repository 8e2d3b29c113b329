import FoundationRules
import ScenarioKit
import Testing

@testable import Practice

/// The model of a serial queue's order, against the rules of
/// swift-corelibs-foundation (each checked on the real engine by the
/// generator's confirming runs).
@Suite("the serial queue's order, as a model")
struct SerialQueueModelTests {
    typealias Op = QuestionDraft.Op

    static func op(
        _ name: String, after: [String] = [], priority: PriorityLevel? = nil, qos: QoSLevel? = nil,
        barrier: Bool = false
    ) -> Op {
        Op(name: name, queue: "q", body: barrier ? .barrier : .work(100), after: after, priority: priority, qos: qos)
    }

    static func order(_ ops: [Op], capAtAdd: Int = 1, cancelled: Set<String> = []) -> [String]? {
        SerialQueueModel(ops: ops, capAtAdd: capAtAdd, cancelled: cancelled).startOrder()
    }

    @Test("the highest priority first, then the order added")
    func priorityThenInsertion() {
        let ops = [
            Self.op("low", priority: .low), Self.op("a"), Self.op("urgent", priority: .veryHigh), Self.op("b"),
        ]
        #expect(Self.order(ops) == ["urgent", "a", "b", "low"])
    }

    @Test("priority never overtakes a dependency")
    func dependencyFirst() {
        let ops = [Self.op("prep", priority: .veryLow), Self.op("urgent", after: ["prep"], priority: .veryHigh)]
        #expect(Self.order(ops + [Self.op("plain")]) == ["plain", "prep", "urgent"])
    }

    @Test("qos becomes a bucket only when the cap is not 1 while it is added; a priority wins")
    func qualityOfService() {
        let ops = [
            Self.op("bg", qos: .background), Self.op("ui", qos: .userInteractive),
            Self.op("marked", priority: .low, qos: .userInteractive), Self.op("plain"),
        ]
        #expect(Self.order(ops, capAtAdd: 2) == ["ui", "plain", "marked", "bg"])
        #expect(Self.order(ops, capAtAdd: 1) == ["bg", "ui", "plain", "marked"])
    }

    @Test("a cancelled operation never starts, is ready at once, and counts as finished for its dependents")
    func cancelled() {
        let ops = [Self.op("first"), Self.op("gone", after: ["first"]), Self.op("next", after: ["gone"])]
        #expect(Self.order(ops, cancelled: ["gone"]) == ["first", "next"])
        // Ready at once: a veryHigh one behind a cancelled dependency
        // starts as soon as that one has had its turn.
        let jump = [
            Self.op("a"), Self.op("b"), Self.op("gone", after: ["b"], priority: .high),
            Self.op("eager", after: ["gone"], priority: .veryHigh),
        ]
        #expect(Self.order(jump, cancelled: ["gone"]) == ["eager", "a", "b"])
    }

    @Test("a barrier waits for what was added before it; what comes after waits for the barrier")
    func barrier() {
        let ops = [
            Self.op("a", priority: .low), Self.op("b"), Self.op("bar", barrier: true),
            Self.op("c", priority: .veryHigh), Self.op("d"),
        ]
        let model = SerialQueueModel(ops: ops, capAtAdd: 1, cancelled: [])
        #expect(model.steps()?.map { model.items[$0.index].name } == ["b", "a", "bar", "c", "d"])
        #expect(model.startOrder() == ["b", "a", "c", "d"])
    }

    @Test("a step's explanation names the rule that decided it")
    func explanation() {
        let ops = [
            Self.op("prep", priority: .veryLow), Self.op("urgent", after: ["prep"], priority: .veryHigh),
            Self.op("one"), Self.op("two"),
        ]
        let lines = SerialQueueModel(ops: ops, capAtAdd: 1, cancelled: []).explanation()
        #expect(
            lines == [
                "1. one — ready with two, both normal: one was added first; urgent (veryHigh) still waits for "
                    + "prep: priority never overtakes a dependency",
                "2. two — the highest priority of the ready ones (normal; prep veryLow)",
                "3. prep — the only one ready",
                "4. urgent — the only one ready",
            ])
    }
}
