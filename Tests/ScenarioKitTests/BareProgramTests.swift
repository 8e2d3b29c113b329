import Foundation
import ScenarioKit
import Testing

/// The Swift program shown before a question's answer: its code without
/// the comments that state the rules asked about.
@Suite struct BareProgramTests {
    @Test("comments go, code stays; a // inside a string literal is code")
    func stripping() {
        let program = [
            "// A cancelled dependency counts as finished.", "/// Runs main() on a worker thread.", "import Foundation",
            "", "", "let url = \"https://example.com\" // a comment", "let s = \"a \\\" // b\"  // and one more",
            "    // indented comment", "let x = 1 / 2", "", "// tail",
        ]
        #expect(
            SwiftProgramPrinter.withoutComments(program) == [
                "import Foundation", "", "let url = \"https://example.com\"", "let s = \"a \\\" // b\"",
                "let x = 1 / 2",
            ])
    }

    @Test("a library lesson's bare program keeps every line of code, says no rule, and still type-checks")
    func libraryProgram() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios/34-completion-hand-off.ops").path
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let scenario = try #require(ScenarioReader.read(SourceFile(path: path, bytes: Array(bytes))).scenario)
        let full = SwiftProgramPrinter().program(for: scenario).components(separatedBy: "\n")
        let bare = SwiftProgramPrinter.withoutComments(full)
        #expect(!bare.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") })
        #expect(!bare.joined().contains("counts as finished"))
        #expect(!bare.joined().contains("Foundation lets consume go"))
        let code = full.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") && !$0.isEmpty }
        #expect(bare.filter { !$0.isEmpty }.count == code.count)
        let result = try Swiftc.run(["-typecheck", "-swift-version", "6"], program: bare.joined(separator: "\n"))
        #expect(result.status == 0, "\(result.output)")
    }
}
