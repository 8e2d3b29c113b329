import EventFixtures
import Testing

@testable import ScenarioKit

@Suite struct RobustnessTests {
    static let seeds: [String] = [
        ReferenceExampleTests.source,
        ScenarioPrinterTests.rich[5],
        "queue q max 2\nop a on q blocks 3 x 1ms after b\nop b async 1s never-finishes\nat 1s max q 3\nexpect a before b",
        "speed 0.5\nop a work 1s\nat 1s say \"a \\\" b\"\nwhen a cancelled say \"c\"\nat 1s cancel a\nwhen a finishes say \"f\"",
    ]

    /// Bytes that tend to break lexers.
    static let interesting: [UInt8] = Array("\"\\\n#,-.0123456789xmsa_ \t".utf8) + [0, 0xFF, 0xC3, 0xE2, 0x80, 0xF0]

    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &rng)
            case 1: bytes.insert(interesting.randomElement(using: &rng)!, at: position)
            case 2 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...20, using: &rng))
                bytes.removeSubrange(position..<end)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &rng))
                let slice = bytes[position..<end]
                bytes.insert(contentsOf: slice, at: Int.random(in: 0...bytes.count, using: &rng))
            case 4: bytes.insert(contentsOf: Array("99999999999999999999".utf8), at: position)
            default: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: position)
            }
        }
        return bytes
    }

    /// The invariants every reading must keep, whatever the bytes.
    static func check(_ bytes: [UInt8]) {
        let file = SourceFile(path: "fuzz.ops", bytes: bytes)
        let result = ScenarioReader.read(file)
        #expect((result.scenario == nil) == result.hasErrors, "\(bytes)")
        #expect(result.diagnostics.allSatisfy { $0.location.line >= 1 && $0.location.column >= 1 }, "\(bytes)")
        #expect(
            zip(result.diagnostics, result.diagnostics.dropFirst()).allSatisfy { $0.location <= $1.location },
            "\(bytes)")
        _ = DiagnosticPrinter().renderAll(result, file: file, color: true)
        if let scenario = result.scenario {
            // Whatever was accepted prints to text that reads back the same.
            let again = ScenarioReader.read(ScenarioPrinter().source(for: scenario)).scenario
            #expect(again?.withoutLocations == scenario.withoutLocations, "\(bytes)")
        }
    }

    @Test func mutatedScenariosNeverCrash() {
        var rng = SplitMix64(seed: 0x0D5C_0FE5)
        for i in 0..<3000 {
            let seed = Array(Self.seeds[i % Self.seeds.count].utf8)
            Self.check(Self.mutate(seed, &rng))
        }
    }

    @Test func randomBytesNeverCrash() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<1000 {
            let count = Int.random(in: 0...200, using: &rng)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &rng)
                    ? UInt8.random(in: 0...255, using: &rng) : Self.interesting.randomElement(using: &rng)!
            }
            Self.check(bytes)
        }
    }

    @Test(arguments: [
        "\"", "\"\\", "-", "-1", "1.", ".5s", "op", "at", "expect", "queue q max",
        "op a blocks", "op a blocks 3 x", "op a blocks 1ms,", "expect a before", "at 1s max q",
        "op a work 18446744073709551616ms", "queue q max -99999999999999999999", "\u{0}", "#\u{0}",
    ])
    func truncatedInputIsAnErrorNotACrash(_ text: String) {
        let result = ScenarioKitTests.read(text)
        #expect(result.hasErrors)
        #expect(result.scenario == nil)
    }
}
