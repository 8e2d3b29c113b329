import Testing

@testable import ScenarioKit

/// An operation with more `after` names than Foundation records in about
/// a second gets a warning that says how long, where it is declared.
@Suite struct FanInTests {
    /// `count` operations, then `sink` after all of them (a name given
    /// twice still counts once, as Foundation records it).
    static func file(sources count: Int) -> String {
        let names = (0..<count).map { "s\($0)" }
        return names.map { "op \($0) work 0ms\n" }.joined() + "op sink work 0ms after "
            + (names + ["s0"]).joined(separator: ", ")
    }

    @Test func upToTheLimitNothingIsSaid() throws {
        let result = read(Self.file(sources: FanIn.quietLimit))
        #expect(result.diagnostics.map(\.message) == ["'s0' is listed twice after 'after'"])
    }

    @Test func oneMoreIsAWarningAtTheOperationWithTheTimeItTakes() throws {
        let result = read(Self.file(sources: FanIn.quietLimit + 1))
        let warning = try #require(result.diagnostics.first { $0.severity == .warning })
        #expect(
            warning.message
                == "'sink' waits for 50,001 operations: Foundation's addDependency is quadratic: about 0.7 s here")
        #expect(warning.location == Loc(line: FanIn.quietLimit + 2, column: 4))
        #expect(
            warning.notes == [
                "each addDependency looks along the dependencies already added: 50,000 take about 0.8 s on 2 cores, "
                    + "100,000 about 2.7 s"
            ])
    }

    @Test(arguments: [
        (50_001, "0.7"), (100_000, "2.7"), (190_000, "9.7"), (200_000, "11"), (1_000_000, "270"),
        (2_550_000, "1,800"),
    ])
    func theTimeIsSaidAsMeasured(_ count: Int, _ spelled: String) {
        #expect(FanIn.spelled(FanIn.seconds(forDependencies: count)) == spelled)
    }
}
