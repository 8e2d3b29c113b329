import Foundation
import Testing

/// The eight kinds of bug an engineer meets in an app's operation graph
/// (`Fixtures/bugs/`, and `Fixtures/album-deadlock.ops`): each is found in
/// one `trace`, whose report says what went wrong and the rule behind it,
/// and its fix holds in every one of five runs (`trace --repeat`).
@Suite("debugging a file: each bug found in one trace, each fix proven over runs")
struct DebuggingBugsTests {
    struct Bug: CustomTestStringConvertible, Sendable {
        /// The file with the bug; its fix is `<name>-fixed.ops` in `bugs/`.
        var file: String
        var fixed: String
        /// What the report says, as a regular expression.
        var found: String
        /// The fix's runs are slower when its margin against a race is in
        /// scenario time (the album's resume comes 300ms after the sheet starts).
        var speed = "4"

        var testDescription: String { (file as NSString).lastPathComponent }
    }

    static let bugs = "Tests/opscopeTests/Fixtures/bugs/"

    static let all: [Bug] = [
        Bug(
            file: bugs + "missing-dependency.ops", fixed: bugs + "missing-dependency-fixed.ops",
            found: "✗ expect thumb3 depends on decode3 — thumb3 does not depend on decode3, directly or through "
                + "others: its dependency is fetch3"),
        Bug(
            file: bugs + "logout-cancels-refresh.ops", fixed: bugs + "logout-cancels-refresh-fixed.ops",
            found: "✗ expect skipped profile — profile started at [0-9.]+s and was never cancelled; it ran although "
                + "refresh was cancelled: a cancelled dependency counts as finished"),
        Bug(
            file: bugs + "serial-sync-priorities.ops", fixed: bugs + "serial-sync-priorities-fixed.ops",
            found: "✗ expect order open-db, upload, commit — started in another order: commit at [0-9.]+s, open-db "
                + "at [0-9.]+s, upload at [0-9.]+s; commit started before open-db: both were ready at [0-9.]+s, and "
                + "commit has the higher queuePriority \\(high against normal; commit's is on line 8\\); sync's cap was 1 "
                + "\\(declared on line 4\\)"),
        Bug(
            file: bugs + "cap-on-the-wrong-queue.ops", fixed: bugs + "cap-on-the-wrong-queue-fixed.ops",
            found: "✗ expect peak downloads <= 2 — peak of downloads was [3-6], more than 2: downloads' cap was the "
                + "system's default \\(declared on line 4\\)"),
        Bug(
            file: bugs + "cap-set-too-late.ops", fixed: bugs + "cap-set-too-late-fixed.ops",
            found: "✗ expect peak uploads <= 2 — peak of uploads was [3-6], more than 2: uploads' cap was the "
                + "system's default \\(declared on line 4\\) while its operations ran; it became 2 only at [0-9.]+s "
                + "\\(by 'at 100ms max uploads 2', line 17\\)"),
        Bug(
            file: bugs + "barrier-on-another-queue.ops", fixed: bugs + "barrier-on-another-queue-fixed.ops",
            found: "✗ expect never together migrate, read-badge — migrate and read-badge were both executing at "
                + "[0-9.]+s: migrate is a barrier of store and read-badge is on ui: a barrier keeps out only the "
                + "operations of its own queue"),
        Bug(
            file: bugs + "one-stuck-in-266.ops", fixed: bugs + "one-stuck-in-266-fixed.ops",
            found: "\n  5 operations held: fetch41 never posted isFinished: it holds a slot of net and does nothing "
                + "— fetch41, decode41, thumb41 and 2 more\n"),
        Bug(
            file: "Tests/opscopeTests/Fixtures/album-deadlock.ops", fixed: bugs + "suspension-deadlock-fixed.ops",
            found: "\n  119 operations held by a deadlock: photos is suspended, and what would resume it waits behind "
                + "it", speed: "2"),
    ]

    @Test(arguments: all)
    func oneTraceFindsTheBug(_ bug: Bug) throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "4", bug.file])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.range(of: bug.found, options: .regularExpression) != nil, "\(result.stdout.suffix(3000))")
    }

    @Test(arguments: all)
    func theFixHoldsInEveryRun(_ bug: Bug) throws {
        let result = try OpscopeBinary.run(["trace", "--repeat", "5", "--speed", bug.speed, bug.fixed])
        #expect(result.status == 0, "\(result.stdout.suffix(3000))\(result.stderr)")
        #expect(result.stdout.contains("\n5 of 5 runs passed; "), "\(result.stdout.suffix(3000))")
    }

    /// Every bug file comes with its fix, and every fix with its bug.
    @Test func theFixturesComeInPairs() throws {
        let root = OpscopeBinary.packageRoot.appendingPathComponent(Self.bugs)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".ops") }
        let listed = Set(Self.all.flatMap { [$0.file, $0.fixed] }.map { ($0 as NSString).lastPathComponent })
        #expect(Set(names) == listed.subtracting(["album-deadlock.ops"]))
    }
}
