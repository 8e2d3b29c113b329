import CommandSupport
import Foundation
import Testing

@testable import opscope

/// The status a command returns to `main`, in-process: the statuses decided
/// before anything runs (the ones after a run are `TraceWriterTests`' and
/// the process tests').
@Suite struct ExitStatusTests {
    static func path(_ relative: String) -> String {
        OpscopeBinary.packageRoot.appendingPathComponent(relative).path
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let arguments: [String]
        let status: CommandSupport.ExitStatus
    }

    static let cases: [Case] = [
        Case(
            testDescription: "check of a good file", arguments: ["check", path("scenarios/01-chain.ops")],
            status: .success),
        Case(
            testDescription: "check of a file with errors",
            arguments: ["check", path("scenarios/mistakes/cycle.ops")], status: .usage),
        Case(testDescription: "trace of no file", arguments: ["trace", path("nonexistent.ops")], status: .usage),
        Case(
            testDescription: "trace of a file with errors",
            arguments: ["trace", path("scenarios/mistakes/cycle.ops")], status: .usage),
        Case(
            testDescription: "trace with an unknown option",
            arguments: ["trace", path("scenarios/01-chain.ops"), "--frobnicate"], status: .usage),
        Case(testDescription: "an unknown command", arguments: ["frobnicate"], status: .usage),
        Case(testDescription: "--version", arguments: ["--version"], status: .success),
    ]

    @Test(arguments: cases)
    func aCommandReturnsItsStatus(_ c: Case) {
        #expect(Opscope.run(c.arguments) == c.status)
    }

    @Test func aRecordingThatCannotBeReadEndsWithStatusTwo() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("garbage.jsonl", "not json\n")
        #expect(Opscope.run(["trace", path]) == .usage)
    }
}
