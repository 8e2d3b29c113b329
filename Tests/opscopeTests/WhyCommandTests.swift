import Foundation
import Testing

/// `opscope why RUN X [Y]` in the real program: the answer to "does X wait
/// for Y?", the chain of what held X back, its exit status, and its errors.
@Suite("opscope why")
struct WhyCommandTests {
    @Test func theMissingDependencyIsNamedAndTheChainAddsUpToTheStart() throws {
        let result = try OpscopeBinary.run(
            ["why", "Tests/opscopeTests/Fixtures/bugs/missing-dependency.ops", "thumb3", "decode3", "--speed", "4"])
        #expect(result.status == 1, "thumb3 does not wait for decode3: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first == "no: thumb3 does not wait for decode3, directly or through others; its dependency is fetch3")
        #expect(
            lines.contains {
                $0.hasPrefix("thumb3 started at ")
                    && $0.hasSuffix("on ui. What decided when, from the start of the run:")
            })
        // The last link lets thumb3 go: fetch3's finish, or (when the
        // decodes held both worker threads) the thread one of them gave back.
        let last = try #require(lines.last { $0.hasPrefix("  0.") || $0.hasPrefix("  1.") })
        #expect(
            last.hasSuffix("thumb3 turned ready when its dependency fetch3 finished, and ui dispatched it")
                || last.contains("thumb3 was dispatched") || last.contains("thumb3, dispatched at "), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  the links add up to ") }, "\(lines)")
        // Whether decode3 is on it depends on which decode gave back the thread thumb3 started on.
        #expect(
            lines.last == "in this run, decode3 is not on the chain that decided when thumb3 started"
                || lines.last == "in this run, decode3 is on the chain that decided when thumb3 started")
    }

    @Test func aSuspendedQueuesResumeIsTheLinkThatCostTheMost() throws {
        let result = try OpscopeBinary.run(["why", "scenarios/23-suspend-resume.ops", "d3", "--speed", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("the run came to 'at 1.6s resume downloads' (line 17)"), "\(result.stdout)")
        #expect(
            result.stdout.contains("downloads was resumed by 'at 1.6s resume downloads' (line 17): d3 was dispatched"))
    }

    @Test func aRecordingIsAskedWithoutRunningAnything() throws {
        let result = try OpscopeBinary.run(["why", "Tests/BoardTests/Recordings/01-chain.jsonl", "save", "fetch"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("yes: save waits for fetch through save → parse → fetch"), "\(result.stdout)")
    }

    @Test(arguments: [
        (
            ["why", "scenarios/01-chain.ops"],
            "'why' needs a run (a recording or a scenario file) and an operation's name"
        ),
        (["why", "scenarios/01-chain.ops", "nope"], "scenarios/01-chain.ops has no operation named 'nope'"),
        (
            ["why", "Tests/BoardTests/Recordings/01-chain.jsonl", "save", "--speed", "2"],
            "'--speed' goes with a scenario file"
        ),
        (["why", "scenarios/30-waiting-on-the-main-thread.ops", "badge"], "this file makes the main thread wait"),
    ])
    func aWrongQuestionGetsOneClearLineAndExit2(_ arguments: [String], _ message: String) throws {
        let result = try OpscopeBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
