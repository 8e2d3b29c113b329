import Foundation
import Practice
import Testing

/// Generated questions where people use scenarios: in the interface
/// (tmux), a saved one opens, runs to its end and quits with the terminal
/// restored.
@Suite("generated questions in the interface")
struct GeneratedInterfaceTests {
    @Test("a saved question of each level opens, runs to its end at ×4, and quits", arguments: [1, 2, 3])
    func opens(_ level: Int) throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let question = try QuestionGenerator.generate(level: level, seed: 11) { _ in nil }
        let path = try scratch.write("generated.ops", question.text)
        let tmux = try TmuxSession([path, "--speed", "4"])
        try tmux.waitFor("the generated question to end", timeout: 60) { LibraryInterfaceTests.isOver($0) }
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]", timeout: 20)
        try tmux.waitFor(text: "[terminal restored]")
    }
}
