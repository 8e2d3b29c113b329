import Testing
import TextKit

@testable import ScenarioKit

/// `code "FILE.swift"` and `op NAME class TYPE`: what they read as, every
/// diagnostic they add (pinned in full, with the caret's place), the
/// canonical print, the Swift program, and the probe that asks the
/// compiler whether each class is what opscope's programs need.
@Suite struct OwnClassLanguageTests {
    static let source = """
        code "ops/Download.swift"
        queue net max 2
        op fetch on net class Download priority high
        op parse on net work 200ms after fetch
        op save on net class Saver after parse completion
        op again on net class Download qos utility
        """

    /// Reads `text` as `check` and `swift` do: `class` accepted.
    func accepted(_ text: String) -> ParseResult {
        ScenarioReader.read(SourceFile(path: "test.ops", text: text), ownCode: .accepted)
    }

    @Test func aClassClauseIsTheOperationsBodyAndTheCodeFileIsKept() throws {
        let result = accepted(Self.source)
        #expect(describeAll(result) == [])
        let scenario = try #require(result.scenario)
        #expect(scenario.code == [CodeFile(path: "ops/Download.swift", location: Loc(line: 1, column: 1))])
        #expect(scenario.operations.map(\.body.customClass) == ["Download", nil, "Saver", "Download"])
        #expect(scenario.customOperations == [OperationID(0), OperationID(2), OperationID(3)])
        #expect(scenario.classLocations[OperationID(0)] == Loc(line: 3, column: 23))
        #expect(scenario.operations[0].priority == .high)
        #expect(scenario.operations[2].completion != nil)
        #expect(scenario.operations[3].qos == .utility)
    }

    @Test func theCanonicalPrintReadsBackEqual() throws {
        let scenario = try #require(accepted(Self.source).scenario)
        let printed = ScenarioPrinter().source(for: scenario)
        #expect(printed.hasPrefix("code \"ops/Download.swift\"\n\nqueue net max 2\n"), "\(printed)")
        #expect(printed.contains("op fetch on net class Download priority high\n"), "\(printed)")
        let again = try #require(accepted(printed).scenario)
        #expect(again.withoutLocations == scenario.withoutLocations)
    }

    @Test func aRunRefusesTheClassAtItsName() {
        // Every read but check's and swift's: no run of opscope is ever
        // handed an operation it cannot make.
        #expect(
            describeAll(read("code \"a.swift\"\nop a class Mine"))
                == [
                    "2:12 error: opscope does not run your class Mine here yet | 'opscope FILE' runs it on the real engine on the board, 'opscope trace FILE' in every format; 'opscope swift FILE' writes the program that runs it on Foundation's OperationQueue"
                ])
        #expect(read("code \"a.swift\"\nop a class Mine").scenario == nil)
    }

    static let diagnostics: [DiagnosticCase] = [
        .init(
            "a class without its file", "op a class Mine",
            [
                "1:12 error: 'class Mine' needs the file that declares it | add a line 'code \"FILE.swift\"' (the path is relative to this scenario)"
            ]),
        .init(
            "a name Swift cannot give a class", "code \"a.swift\"\nop a class my-op",
            [
                "2:12 error: 'my-op' cannot name your class | 'class TYPE' names an Operation subclass declared in a 'code' file: a Swift type name (letters, digits and '_'), not a keyword nor a name the program opscope writes uses (such as Clock, Tally or OperationQueue)"
            ]),
        .init(
            "a name the program uses", "code \"a.swift\"\nop a class Tally",
            [
                "2:12 error: 'Tally' cannot name your class | 'class TYPE' names an Operation subclass declared in a 'code' file: a Swift type name (letters, digits and '_'), not a keyword nor a name the program opscope writes uses (such as Clock, Tally or OperationQueue)"
            ]),
        .init(
            "clauses that are the class's own", "code \"a.swift\"\nop a class Mine ignores-cancel never-finishes",
            [
                "2:17 error: 'ignores-cancel' does not apply to 'class' | what your own class does when cancelled, and whether it finishes, is its own code's",
                "2:32 error: 'never-finishes' does not apply to 'class' | what your own class does when cancelled, and whether it finishes, is its own code's",
            ]),
        .init(
            "two bodies", "code \"a.swift\"\nop a class Mine work 1s",
            ["2:17 error: 'work' conflicts with 'class' | an operation has exactly one body"]),
        .init("a class without a name", "code \"a.swift\"\nop a class", ["2:11 error: expected a name after 'class'"]),
        .init("a code line without a path", "code", ["1:5 error: expected a quoted string after 'code'"]),
    ]

    @Test(arguments: diagnostics)
    func reportsExactly(_ c: DiagnosticCase) {
        let result = accepted(c.source)
        #expect(describeAll(result) == c.expected)
        #expect(result.scenario == nil)
    }

    @Test func theProgramMakesEachOperationFromAWatchedSubclass() throws {
        let scenario = try #require(accepted(Self.source).scenario)
        let text = SwiftProgramPrinter(sourceName: "own.ops").program(for: scenario)
        #expect(text.contains("swiftc -O main.swift ops/Download.swift -o scenario && ./scenario"), "\(text)")
        #expect(text.contains("final class WatchedDownload: Download, RecordsItsStart, @unchecked Sendable {"))
        #expect(text.contains("final class WatchedSaver: Saver, RecordsItsStart, @unchecked Sendable {"))
        #expect(text.components(separatedBy: "final class WatchedDownload").count == 2, "one subclass per class")
        #expect(text.contains("let fetch = WatchedDownload()\n    fetch.name = \"fetch\""), "\(text)")
        #expect(text.contains("fetch.queuePriority = .high"))
    }

    @Test func aPathThatNeedsQuotingIsQuotedForTheShell() {
        #expect(SwiftProgramPrinter.shellWord("ops/A-1.swift") == "ops/A-1.swift")
        #expect(SwiftProgramPrinter.shellWord("my ops/it's.swift") == #"'my ops/it'\''s.swift'"#)
        #expect(SwiftProgramPrinter.shellWord("a\u{1B}[2J.swift") == "'a [2J.swift'", "no escape reaches a comment")
    }

    @Test func gcdHasNoFormOfAnOperationSubclass() throws {
        let scenario = try #require(accepted(Self.source).scenario)
        let why = try #require(GCDProgramPrinter.unwritable(scenario))
        #expect(why.hasPrefix("'fetch' is your class Download, an Operation subclass"))
        #expect(GCDProgramPrinter.unwritable(try #require(clean("op a work 1s"))) == nil)
    }

    // MARK: The probe

    @Test func theProbeUsesEachClassOnceOnLinesOfItsOwn() throws {
        let probe = OwnClassProbe(try #require(accepted(Self.source).scenario))
        #expect(probe.types == ["Download", "Saver"])
        let lines = probe.source.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "final class OpscopeProbe0: Download, @unchecked Sendable {}")
        #expect(lines[3] == "func opscopeIsOperation0() -> Operation.Type { OpscopeProbe0.self }")
        #expect(lines[4] == "func opscopeMake0() -> Operation { OpscopeProbe0() }")
        #expect(lines[5] == "final class OpscopeProbe1: Saver, @unchecked Sendable {}")
    }

    /// What swiftc says of the probe, line by line, becomes one diagnostic
    /// per class clause: the first requirement the class misses.
    @Test func eachClassIsToldTheFirstRequirementItMisses() throws {
        let scenario = try #require(accepted(Self.source).scenario)
        let probe = OwnClassProbe(scenario)
        let file = OwnClassProbe.fileName
        let said = """
            \(file):3:28: error: inheritance from a final class 'Download'
            final class OpscopeProbe0: Download, @unchecked Sendable {}
                                       ^
            \(file):4:50: error: cannot convert return expression of type 'OpscopeProbe0.Type' to return type 'Operation.Type'
            \(file):8:36: error: missing argument for parameter 'x' in call
            ops/Download.swift:2:7: warning: something of the user's own
            """
        let found = probe.diagnostics(
            from: CompilerDiagnostic.parse(said), in: scenario, files: "'ops/Download.swift'"
        ).map(describe)
        #expect(
            found == [
                "3:23 error: Download is final | opscope watches your class through a subclass of it: remove 'final' | swiftc: inheritance from a final class 'Download'",
                "5:22 error: Saver cannot be made with Saver() | each operation is made with an init without arguments | swiftc: missing argument for parameter 'x' in call",
                "6:23 error: Download is final | opscope watches your class through a subclass of it: remove 'final' | swiftc: inheritance from a final class 'Download'",
            ])
    }

    @Test func aMissingAHiddenAStructAndANonOperationClassAreToldApart() throws {
        let scenario = try #require(
            accepted("code \"a.swift\"\nop a class A\nop b class B\nop c class C\nop d class D").scenario)
        let probe = OwnClassProbe(scenario)
        let file = OwnClassProbe.fileName
        let said = """
            \(file):3:28: error: cannot find type 'A' in scope
            \(file):6:28: error: 'B' is inaccessible due to 'private' protection level
            \(file):9:28: error: inheritance from non-protocol, non-class type 'C'
            \(file):13:50: error: cannot convert return expression of type 'OpscopeProbe3.Type' to return type 'Operation.Type'
            """
        let found = probe.diagnostics(from: CompilerDiagnostic.parse(said), in: scenario, files: "'a.swift'")
        #expect(
            found.map(\.message) == [
                "no class A in 'a.swift'", "B is not visible outside its file", "C is not a class",
                "D is not an Operation subclass",
            ])
        #expect(found.map(\.location.line) == [2, 3, 4, 5])
        #expect(!found[3].notes.joined().contains("OpscopeProbe"), "the probe's own names stay out of the message")
    }
}

/// The file compiled with the user's classes into the library a trace
/// loads: one watched subclass and one C-named factory per class, each
/// event reported by its number in `OwnClassEvent`.
@Suite struct OwnClassGlueTests {
    @Test func eachClassGetsAWatchedSubclassAndAFactoryByNumber() throws {
        let scenario = try #require(
            ScenarioReader.read(
                SourceFile(path: "t.ops", text: OwnClassLanguageTests.source), ownCode: .accepted
            ).scenario)
        let glue = OwnClassGlue(scenario)
        #expect(glue.types == ["Download", "Saver"])
        #expect(glue.source.contains("final class OpscopeWatched0: Download, @unchecked Sendable {"))
        #expect(glue.source.contains("final class OpscopeWatched1: Saver, @unchecked Sendable {"))
        #expect(glue.source.contains("@_cdecl(\"opscope_make_1\")"))
        #expect(OwnClassGlue.factorySymbol(1) == "opscope_make_1")
        // Every call and answer is reported under its own number.
        #expect(glue.source.contains("opscopeTell(\(OwnClassEvent.startBegan.rawValue))\n        super.start()"))
        #expect(glue.source.contains("opscopeTell(\(OwnClassEvent.isFinishedSaid.rawValue), answer)"))
        #expect(glue.source.contains("deinit { opscopeTell(\(OwnClassEvent.released.rawValue)) }"))
        #expect(Set(OwnClassEvent.allCases.map(\.rawValue)).count == OwnClassEvent.allCases.count)
    }
}
