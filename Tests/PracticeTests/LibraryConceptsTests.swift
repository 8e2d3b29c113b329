import Foundation
import Practice
import Testing

/// The concepts the practice record counts per library file: every lesson
/// is in the table, so that none is counted by what its text happens to use.
struct LibraryConceptsTests {
    @Test func everyLibraryFileHasItsConcepts() throws {
        let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: scenarios.path).filter { $0.hasSuffix(".ops") }
        #expect(files.count >= 29)
        #expect(Set(files) == Set(LibraryConcepts.table.keys))
        #expect(LibraryConcepts.table.values.allSatisfy { !$0.isEmpty })
    }
}
