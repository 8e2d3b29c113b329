import Foundation
import ScenarioKit
import Testing

/// The library's captions are a teacher's script: each must fire in the
/// run it belongs to (a caption that never shows is a lesson with a hole).
/// Every library file has a script and a pace of its own.
@Suite("the library's captions")
struct LibraryCaptionTests {
    static let files = LibraryInterfaceTests.library

    static func scenario(_ path: String) throws -> Scenario {
        let url = OpscopeBinary.packageRoot.appendingPathComponent(path)
        let data = try Data(contentsOf: url)
        let result = ScenarioReader.read(SourceFile(path: path, bytes: Array(data)))
        return try #require(result.scenario, "\(path) has errors")
    }

    @Test("every library file has captions and a speed", arguments: files)
    func everyFileHasAScript(_ path: String) throws {
        let scenario = try Self.scenario(path)
        #expect(!scenario.captions.isEmpty, "\(path) has no caption")
        #expect(scenario.speed != nil, "\(path) has no speed")
    }

    /// With the state reader and without it (`OPSCOPE_STATE_READER=off`):
    /// then the captions about a dispatch never fire, every other does, and
    /// the recording's header says that no moment of dispatch was observed.
    @Test("each caption fires in its run", arguments: files, [true, false])
    func eachCaptionFires(_ path: String, observingDispatches: Bool) throws {
        let scenario = try Self.scenario(path)
        // Whether the expectations hold is CI's trace step's question (and
        // 18's peak needs a speed of 4 or less): here, only that it ran.
        let result = try OpscopeBinary.run(
            ["trace", "--speed", "4", "--format", "jsonl", path],
            timeout: 120, environment: observingDispatches ? [:] : ["OPSCOPE_STATE_READER": "off"])
        #expect(result.status != 2, "\(path): \(result.stderr)")
        #expect(result.stdout.contains(#""kind":"end""#), "\(path) did not end")
        let header = result.stdout.prefix { $0 != "\n" }
        #expect(
            header.hasSuffix(#","dispatches":"at-start"}"#) == !observingDispatches, "\(path): \(header.suffix(60))")
        var fired: [String: Int] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard line.contains(#""kind":"caption""#),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let text = object["text"] as? String
            else { continue }
            fired[text, default: 0] += 1
        }
        var expected: [String: Int] = [:]
        for caption in scenario.captions where observingDispatches || !caption.claimsDispatches {
            expected[caption.text, default: 0] += 1
        }
        for caption in scenario.captions where !observingDispatches && caption.claimsDispatches {
            #expect(fired[caption.text] == nil, "\(path): \"\(caption.text)\" speaks of a dispatch none was seen")
        }
        for (text, count) in expected {
            #expect(fired[text] == count, "\(path): \"\(text)\" fired \(fired[text] ?? 0) times, not \(count)")
        }
    }
}
