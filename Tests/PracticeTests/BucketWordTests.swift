import Foundation
import FoundationRules
import ScenarioKit
import Testing

@testable import Practice

/// "Bucket" is the engine's word for the ready operations of one
/// priority level; a text that shows it says what it is the first time.
@Suite struct BucketWordTests {
    /// The first line of `text` (notes come before captions in a file)
    /// and the first caption that say "bucket" each explain it.
    static func firstUsesExplain(_ text: String) -> Bool {
        let lines = text.split(separator: "\n").map(String.init)
        let notes = lines.filter { $0.hasPrefix("note ") || $0.contains("say \"") }
        let firstNote = notes.first { $0.hasPrefix("note ") && $0.contains("bucket") }
        let firstCaption = notes.first { $0.contains("say \"") && $0.contains("bucket") }
        return [firstNote, firstCaption].allSatisfy { line in
            line.map { $0.contains("one queuePriority") && $0.contains("highest") } ?? true
        }
    }

    @Test func theLibrarySaysWhatABucketIsWhereItFirstSaysBucket() throws {
        let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: scenarios.path).filter { $0.hasSuffix(".ops") }
        var saying = 0
        for file in files {
            let text = try String(contentsOf: scenarios.appendingPathComponent(file), encoding: .utf8)
            if text.contains("bucket") { saying += 1 }
            #expect(Self.firstUsesExplain(text), "\(file)")
        }
        #expect(saying >= 1)
    }

    @Test func aGeneratedQuestionSaysWhatABucketIsWhereItFirstSaysBucket() throws {
        var saying = 0
        for level in QuestionGenerator.levels {
            for seed in UInt64(1)...24 {
                let text = try QuestionGenerator.generate(level: level, seed: seed) { _ in nil }.text
                if text.contains("bucket") { saying += 1 }
                #expect(Self.firstUsesExplain(text), "level \(level) seed \(seed)")
            }
        }
        #expect(saying >= 1)
    }

    @Test func theGlossSaysWhatTheEngineDoes() {
        // ENGINE-NOTES, Scheduling: by priority level, then the order added.
        #expect(PriorityLevel.bucketGloss.contains("one queuePriority"))
        #expect(PriorityLevel.bucketGloss.contains("highest bucket starts first, each in the order added"))
    }
}
