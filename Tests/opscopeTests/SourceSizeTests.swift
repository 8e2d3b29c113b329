import Foundation
import Testing

/// No file of `Sources` grows past 400 lines: one that does holds more
/// than one thing, and is split by what each part is for.
@Suite struct SourceSizeTests {
    static let limit = 400

    @Test func noSourceFileIsOver400Lines() throws {
        let sources = OpscopeBinary.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100, "the sources were not found")
        var over: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            let lines =
                text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            if lines > Self.limit { over.append("Sources/\(file): \(lines) lines") }
        }
        #expect(over.isEmpty, "\(over.joined(separator: "\n"))")
    }
}
