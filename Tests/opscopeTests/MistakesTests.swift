import Testing

/// Every file in scenarios/mistakes/ is there to fail `check` with the
/// diagnostic that teaches its rule: pinned here, position and words.
@Suite("the mistakes library")
struct MistakesTests {
    static let cases: [(String, String)] = [
        ("added-twice.ops", "10:14: error: 'fetch' is added twice"),
        ("cap-zero.ops", "4:15: error: a cap of 0 would stall the queue without saying so"),
        ("cycle.ops", "9:27: error: dependency cycle: save → parse → save"),
        ("misspelt-dependency.ops", "8:27: error: unknown operation 'fech'"),
    ]

    @Test("each mistake fails check with the diagnostic it teaches", arguments: cases)
    func mistakeTeachesItsRule(file: String, diagnostic: String) throws {
        let path = "scenarios/mistakes/" + file
        let result = try OpscopeBinary.run(["check", path])
        #expect(result.status == 2)
        let errors = result.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors == ["\(path):\(diagnostic)"])
        #expect(result.stdout == "\(path): 1 error\n")
    }

    @Test("the mistakes folder holds exactly the pinned files")
    func everyMistakeIsPinned() throws {
        let listed = try OpscopeBinary.run(["list", "scenarios/mistakes"])
        for (file, _) in Self.cases {
            #expect(listed.stdout.contains(file))
        }
        let lines = listed.stdout.split(separator: "\n").filter { $0.contains(".ops") }
        #expect(lines.count == Self.cases.count, "\(listed.stdout)")
    }
}
