import Synchronization
import Testing

@testable import ScenarioKit

/// A read given up (`--watch`, once a newer save came) stops within a few
/// thousand statements, in the lexer's count of lines, the parser's
/// statements and the validator's passes alike, and gives nothing.
@Suite struct ReadCancellationTests {
    /// Counts the looks, and says "given up" from the `from`th one on.
    final class Looks: Sendable {
        private let count = Atomic<Int>(0)
        let from: Int

        init(givingUpFrom from: Int) { self.from = from }

        var cancellation: ReadCancellation {
            ReadCancellation { [self] in count.add(1, ordering: .relaxed).newValue >= from }
        }

        var made: Int { count.load(ordering: .relaxed) }
    }

    /// `count` operations, one a line, a file of some `count` × 21 bytes.
    static func flat(_ count: Int) -> SourceFile {
        var text = "queue q\n"
        for i in 0..<count { text += "op o\(i) work 1ms\n" }
        return SourceFile(path: "flat.ops", text: text)
    }

    static let large = flat(200_000)

    @Test func aReadThatIsStillWantedGivesWhatAReadGives() {
        let looks = Looks(givingUpFrom: .max)
        let result = ScenarioReader.read(Self.large, unless: looks.cancellation)
        #expect(result?.scenario == ScenarioReader.read(Self.large).scenario)
        #expect(result?.scenario?.operations.count == 200_000)
        // Every 4,096 statements and every megabyte, in each part: the
        // looks are there to be made.
        #expect(looks.made > 100, "\(looks.made) looks")
    }

    /// Given up at its first look (in the count of lines, the parse, or
    /// the validation): each thread stops at its next look, not at the
    /// end of the file.
    @Test(arguments: [1, 5, 60, 110])
    func aReadGivenUpStopsAtItsNextLook(from look: Int) {
        let looks = Looks(givingUpFrom: look)
        #expect(ScenarioReader.read(Self.large, unless: looks.cancellation) == nil)
        // Two threads read a large file's halves; each looks once more at
        // most, and the reader and validator once each.
        #expect(looks.made <= look + 4, "\(looks.made) looks, given up from the \(look)th")
    }

    @Test func aSmallFileGivenUpFromTheStartGivesNothing() {
        let looks = Looks(givingUpFrom: 1)
        #expect(
            ScenarioReader.read(SourceFile(path: "a.ops", text: "op a work 1s\n"), unless: looks.cancellation) == nil)
    }
}
