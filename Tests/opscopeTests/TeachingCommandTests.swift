import Foundation
import Testing

/// `opscope swift FILE` and `opscope list [DIR]`, run as processes.
@Suite("teaching commands")
struct TeachingCommandTests {
    @Test(
        "a wrong command line gets one clear line and exit 2",
        arguments: [
            (["swift"], "opscope: error: 'swift' needs a scenario file"),
            (["swift", "a.ops", "b.ops"], "opscope: error: 'swift' takes one scenario file, not 2"),
            (["swift", "no/such/file.ops"], "opscope: error: no such file 'no/such/file.ops'"),
            (["swift", "scenarios"], "opscope: error: 'scenarios' is a directory, not a scenario file"),
            (["swift", "--format", "x", "scenarios/01-chain.ops"], "opscope: error: unknown option '--format'"),
            (["list", "a", "b"], "opscope: error: 'list' takes one folder, not 2"),
            (["list", "no/such/folder"], "opscope: error: no such folder 'no/such/folder'"),
            (
                ["list", "scenarios/01-chain.ops"],
                "opscope: error: 'scenarios/01-chain.ops' is a file, not a folder of scenarios"
            ),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try OpscopeBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message + "\n")
        #expect(result.stdout.isEmpty)
    }

    @Test("swift prints the program on standard output and exits 0")
    func swiftPrintsTheProgram() throws {
        let result = try OpscopeBinary.run(["swift", "scenarios/05-priority.ops"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("// queuePriority on a serial queue\n"))
        #expect(result.stdout.contains("written by `opscope swift scenarios/05-priority.ops`"))
        #expect(result.stdout.contains("\nimport Foundation\n"))
        #expect(result.stdout.contains("    let low_one = SimulatedWork(\"low-one\", seconds: 0.1)\n"))
        #expect(result.stdout.contains("    q.isSuspended = true\n"))
        #expect(result.stdout.contains("\nrunScenario()\n"))
        #expect(result.stdout.contains("//   expect order urgent, high-one, normal-one, low-one\n"))
    }

    @Test("swift prints warnings on standard error and still prints the program")
    func swiftWithWarnings() throws {
        let result = try OpscopeBinary.run(["swift", "scenarios/06-forgotten-finish.ops"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("scenarios/06-forgotten-finish.ops:8:28: warning: 'next' can never start"))
        #expect(result.stdout.contains("final class ForgetfulAsyncOperation: AsyncOperation"))
    }

    @Test("swift of a file with errors prints its diagnostics, no program, and exits 2")
    func swiftOfABadFile() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let bad = try scratch.write("bad.ops", "queue q\nop a work 1s completion cancel-al q\n")
        let result = try OpscopeBinary.run(["swift", bad])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("\(bad):2:25: error: unknown completion action 'cancel-al'"))
        #expect(result.stderr.contains("did you mean 'cancel-all'?"))
    }

    @Test("list prints the library in name order, one line per file")
    func listTheLibrary() throws {
        let result = try OpscopeBinary.run(["list"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.first
                == "01  Download, decode, save: a dependency chain — decode depends on fetch, and save on decode: each waits in Pending until its dependency finishes, then turns Ready and starts."
        )
        #expect(
            lines.filter { $0.hasPrefix("0") }.map { String($0.prefix(4)) } == [
                "01  ", "02  ", "03  ", "04  ", "05  ", "06  ", "07  ", "08  ",
            ])
        #expect(
            lines.contains(
                "05  queuePriority on a serial queue — The queue starts suspended, so all four are Ready when it resumes at 100ms: the queue then starts the highest queuePriority first."
            ))
        #expect(result.stdout == (try OpscopeBinary.run(["list", "scenarios"])).stdout)
    }

    @Test("list says which files have errors and lists subfolders after, under a heading")
    func listWithErrorsAndSubfolders() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let mistakes = scratch.directory.appendingPathComponent("mistakes")
        try FileManager.default.createDirectory(at: mistakes, withIntermediateDirectories: true)
        _ = try scratch.write("02-second.ops", "title \"Second\"\nop a work 1s\n")
        _ = try scratch.write("01-first.ops", "title \"First\"\nnote \"One note.\"\nnote \"Another.\"\nop a work 1s\n")
        _ = try scratch.write("10-tenth.ops", "op a work 1s\n")
        _ = try scratch.write("notes.txt", "not a scenario\n")
        _ = try scratch.write("mistakes/01-typo.ops", "title \"Typo\"\nop a wrk 1s\nop b work 5\n")
        _ = try scratch.write(
            "mistakes/02-cycle.ops",
            "title \"Cycle\"\nnote \"Two operations wait for each other.\"\nop a work 1s after b\nop b work 1s after a\n"
        )
        let result = try OpscopeBinary.run(["list", scratch.directory.path])
        #expect(result.status == 0)
        let typo = mistakes.appendingPathComponent("01-typo.ops").path
        let cycle = mistakes.appendingPathComponent("02-cycle.ops").path
        #expect(
            result.stdout == """
                01  First — One note.
                02  Second
                10  10-tenth.ops

                mistakes/
                01  01-typo.ops: 2 errors (opscope check \(typo))
                02  02-cycle.ops: 1 error (opscope check \(cycle))

                """)
    }

    @Test("list of an empty folder says so and exits 0")
    func listAnEmptyFolder() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let result = try OpscopeBinary.run(["list", scratch.directory.path])
        #expect(result.status == 0)
        #expect(result.stdout == "no scenario files in '\(scratch.directory.path)'\n")
    }
}
