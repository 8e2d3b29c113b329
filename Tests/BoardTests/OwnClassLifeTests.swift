import EventFixtures
import RunEvents
import ScenarioKit
import Testing

/// One of the user's classes may go executing though it was cancelled
/// before it started: its `start()` decides, and that it did is the bug its
/// run shows. A stream that says so of an operation of opscope's own is
/// still one that cannot be.
@Suite("the life of an operation of the user's class")
struct OwnClassLifeTests {
    static let scenario: Scenario = {
        let text = "code \"Mine.swift\"\nqueue q\nop mine on q class Mine\nop own on q work 10ms\n"
        return ScenarioReader.read(SourceFile(path: "t.ops", text: text), ownCode: .accepted).scenario!
    }()

    static func faults(of name: String) -> [String] {
        var script = Script(scenario)
        script.add(name)
        script.cancel(name)
        script.start(name)
        var life = LifeCheck(scenario: scenario)
        return script.events.compactMap { life.visit($0)?.message }
    }

    @Test func executingThoughCancelledIsTheClassesToDecide() {
        #expect(Self.faults(of: "mine").isEmpty)
        #expect(Self.faults(of: "own") == ["'own' started executing although it was cancelled before it started"])
    }
}
