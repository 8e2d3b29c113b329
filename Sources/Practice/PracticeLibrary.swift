import Foundation
import ScenarioKit

/// A quiz of the library, ready to ask.
public struct LibraryQuestion: Sendable {
    /// `05-priority.ops`.
    public var fileName: String
    public var path: String
    public var scenario: Scenario
    public var concepts: [Concept]
}

/// The quizzes `opscope practice` asks first: the `*.ops` files of a
/// folder (`scenarios` under the current one) that have a quiz and no
/// error, in file-name order.
public enum PracticeLibrary {
    public static func load(folder: String) -> [LibraryQuestion] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".ops") }.sorted().compactMap { name in
            let path = folder + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            let read = ScenarioReader.read(SourceFile(path: path, bytes: Array(data)))
            guard let scenario = read.scenario, !read.hasErrors, scenario.quiz != nil else { return nil }
            return LibraryQuestion(
                fileName: name, path: path, scenario: scenario,
                concepts: LibraryConcepts.concepts(of: name, scenario: scenario))
        }
    }
}
