import Katas
import ScenarioKit
import Testing

/// A kata's board scenes: each names a check of its kata, and its scenario
/// reads without an error, with the user's class made through the scene's
/// subclass, whose file declares that subclass with an `init()`.
@Suite("a kata's failing check on the board: its scenes")
struct KataBoardTests {
    @Test func everySceneIsACheckOfItsKataAndReads() throws {
        let withBoards = Kata.all.filter { $0.board != nil }
        #expect(withBoards.map(\.name).contains("async-operation"))
        for kata in withBoards {
            for (id, scene) in kata.board?.scenes ?? [:] {
                let check = try #require(kata.check(id), "\(kata.name) has no check \(id)")
                let text = KataBoard.scenario(
                    scene, check: check, kata: kata, userFile: "/tmp/a \"b\".swift", glueFile: "/tmp/glue.swift")
                let result = ScenarioReader.read(SourceFile(path: "\(id).ops", text: text), ownCode: .accepted)
                #expect(!result.hasErrors, "\(kata.name) \(id): \(result.diagnostics.map(\.message))")
                let scenario = try #require(result.scenario)
                #expect(scenario.code.map(\.path) == ["/tmp/a \"b\".swift", "/tmp/glue.swift"])
                let subject = KataBoard.subject(of: kata.className)
                #expect(scenario.operations.contains { $0.body.customClass == subject }, "\(id)")
                let glue = KataBoard.glue(scene, className: kata.className)
                #expect(glue.contains("class \(subject): \(kata.className) {"))
                #expect(glue.contains("convenience init() { \(scene.makes) }"))
            }
        }
    }
}
