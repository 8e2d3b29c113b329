import CommandSupport
import Foundation
import Interactive
import Testing

@testable import opscope

/// The commands, run as processes: exit statuses and what they print.
@Suite("opscope commands")
struct CommandTests {
    @Test("--help lists every command and exits 0")
    func helpListsCommands() throws {
        let result = try OpscopeBinary.run(["--help"])
        #expect(result.status == 0)
        let names = Opscope.subcommands.map { $0.name }
        #expect(names.contains("replay") && names.contains("trace") && names.count >= 8)
        for command in names {
            #expect(result.stdout.contains("  \(command) "), "help misses \(command)")
        }
        #expect(!result.stdout.contains("bench"), "the benchmark is opscope-bench, not a learner's command")
    }

    @Test(
        "help COMMAND and COMMAND --help show the same usage",
        arguments: Opscope.subcommands.map { $0.name }.filter { $0 != "help" })
    func helpForCommand(command: String) throws {
        let viaHelp = try OpscopeBinary.run(["help", command])
        let viaFlag = try OpscopeBinary.run([command, "--help"])
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout.hasPrefix("USAGE: opscope \(command)"))
        #expect(viaHelp.stdout == viaFlag.stdout)
    }

    @Test(
        "a wrong command line gets one clear line and exit 2",
        arguments: [
            (["frobnicate"], "opscope: error: unknown command 'frobnicate'; run 'opscope --help' for the commands"),
            (["--frobnicate"], "opscope: error: unknown option '--frobnicate'; run 'opscope --help' for the commands"),
            (["check"], "opscope: error: 'check' needs at least one scenario file"),
            (["check", "--strict", "scenarios/01-chain.ops"], "opscope: error: unknown option '--strict'"),
            (["check", "no/such/file.ops"], "opscope: error: no such file 'no/such/file.ops'"),
            (["check", "scenarios"], "opscope: error: 'scenarios' is a directory, not a scenario file"),
            (["trace"], "opscope: error: 'trace' needs a scenario file"),
            (["trace", "a.ops", "b.ops"], "opscope: error: 'trace' takes one scenario file, not 2"),
            (
                ["trace", "--format", "xml", "scenarios/01-chain.ops"],
                "opscope: error: '--format' is 'text', 'jsonl', 'chrome', 'timeline', 'dot' or 'mermaid', not 'xml'"
            ),
            (
                ["trace", "--format", "timeline", "--width", "10", "scenarios/01-chain.ops"],
                "opscope: error: '--width' is a whole number from 40 to 1000, not '10'"
            ),
            (
                ["trace", "--format", "timeline", "--width", "1e3", "scenarios/01-chain.ops"],
                "opscope: error: '--width' is a whole number from 40 to 1000, not '1e3'"
            ),
            (
                ["trace", "--width", "80", "scenarios/01-chain.ops"],
                "opscope: error: '--width' goes with '--format timeline'"
            ),
            (
                ["trace", "--speed", "0", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not '0'"
            ),
            (
                ["trace", "--speed", "fast", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not 'fast'"
            ),
            (
                ["trace", "--speed", "1e20", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not '1e20'"
            ),
            (
                ["trace", "--speed", "1e-300", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not '1e-300'"
            ),
            (
                ["trace", "--speed", "0x10", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not '0x10'"
            ),
            (
                ["trace", "--speed", "inf", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not 'inf'"
            ),
            (
                ["trace", "--speed", "nan", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not 'nan'"
            ),
            (
                ["trace", "--speed", "-2", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not '-2'"
            ),
            (
                ["trace", "--speed", "1000.5", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not '1000.5'"
            ),
            (
                ["trace", "--speed", "0.001", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not '0.001'"
            ),
            (
                ["trace", "--speed", "1.2.3", "scenarios/01-chain.ops"],
                "opscope: error: '--speed' is a decimal number from 0.01 to 1000, not '1.2.3'"
            ),
            (["trace", "scenarios/01-chain.ops", "--speed"], "opscope: error: option '--speed' needs a value"),
            (["help", "nope"], "opscope: error: unknown command 'nope'; run 'opscope --help' for the commands"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try OpscopeBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message + "\n")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "the interactive view needs a terminal: one line points to trace",
        arguments: [
            ["scenarios/01-chain.ops"], ["run", "scenarios/01-chain.ops"], [],
        ])
    func interactiveViewNeedsATerminal(arguments: [String]) throws {
        let result = try OpscopeBinary.run(arguments)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "opscope: error: standard output is not a terminal; the interactive view needs one (from a script, use 'opscope trace FILE')\n"
        )
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "options of the interactive view go before or after the file, or stand alone for the picker",
        arguments: [
            ["--paused", "scenarios/01-chain.ops"], ["--speed", "0.25", "scenarios/01-chain.ops"],
            ["scenarios/01-chain.ops", "--speed", "2"], ["--speed=4", "--ascii", "scenarios/01-chain.ops"],
            ["--lesson", "scenarios/01-chain.ops", "--no-color"], ["run", "--ascii", "scenarios/01-chain.ops"],
            ["run", "scenarios/01-chain.ops", "--paused"], ["--paused"], ["--ascii"], ["--lesson", "--no-color"],
            ["run", "--speed", "8"],
        ])
    func interactiveOptionsParse(arguments: [String]) throws {
        // The view refuses only after the options parsed: no terminal here.
        let result = try OpscopeBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == "opscope: error: \(PickerLauncher.notATerminal)\n")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "a wrong option of the interactive view is refused wherever it stands",
        arguments: [
            (["--bogus", "scenarios/01-chain.ops"], "unknown option '--bogus'; run 'opscope --help' for the commands"),
            (["scenarios/01-chain.ops", "--bogus"], "unknown option '--bogus'; run 'opscope --help' for the commands"),
            (["--paused", "--bogus"], "unknown option '--bogus'; run 'opscope --help' for the commands"),
            (["run", "--bogus", "scenarios/01-chain.ops"], "unknown option '--bogus'"),
            (["--paused=yes", "scenarios/01-chain.ops"], "'--paused' takes no value, not '--paused=yes'"),
            (["--speed", "0", "scenarios/01-chain.ops"], "'--speed' is a decimal number from 0.125 to 64, not '0'"),
            (
                ["--speed", "100", "scenarios/01-chain.ops"],
                "'--speed' is a decimal number from 0.125 to 64, not '100'"
            ),
            (
                ["--speed", "0.1", "scenarios/01-chain.ops"],
                "'--speed' is a decimal number from 0.125 to 64, not '0.1'"
            ),
            (
                ["--speed", "1e3", "scenarios/01-chain.ops"],
                "'--speed' is a decimal number from 0.125 to 64, not '1e3'"
            ),
            (["scenarios/01-chain.ops", "--speed"], "option '--speed' needs a value"),
            (["--paused", "a.ops", "b.ops"], "'run' takes one scenario file, not 2"),
            (["--paused", "frobnicate"], "no such file 'frobnicate'"),
        ])
    func interactiveOptionErrors(arguments: [String], message: String) throws {
        let result = try OpscopeBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == "opscope: error: \(message)\n")
        #expect(result.stdout.isEmpty)
    }

    @Test("the interactive view's options: --speed is nil unless given, --lesson is a flag")
    func interactiveOptionValues() throws {
        let (_, none) = try RunCommand.parse(["x.ops"])
        #expect(none.speed == nil)
        #expect(!none.lesson && !none.startsPaused && !none.ascii && !none.noColor)
        let (args, all) = try RunCommand.parse([
            "--lesson", "--speed", "0.25", "x.ops", "--paused", "--ascii", "--no-color",
        ])
        #expect(args.positionals == ["x.ops"])
        #expect(all.speed == 0.25)
        #expect(all.lesson && all.startsPaused && all.ascii && all.noColor)
    }

    @Test(
        "subcommands keep their own options after the file",
        arguments: [
            ["trace", "scenarios/01-chain.ops", "--speed", "4"], ["trace", "--speed", "4", "scenarios/01-chain.ops"],
            ["check", "scenarios/01-chain.ops", "scenarios/02-cap.ops"],
        ])
    func subcommandsStillParse(arguments: [String]) throws {
        let result = try OpscopeBinary.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }

    @Test("the interactive view's help lists its options, from 'help run' and after any option")
    func interactiveHelp() throws {
        let viaHelp = try OpscopeBinary.run(["help", "run"])
        let afterOption = try OpscopeBinary.run(["--paused", "--help"])
        #expect(afterOption.status == 0)
        #expect(afterOption.stdout == viaHelp.stdout)
        for option in ["--speed X", "--paused", "--lesson", "--ascii", "--no-color"] {
            #expect(viaHelp.stdout.contains("  \(option) "), "run help misses \(option)")
        }
    }

    @Test("a file with errors prints its diagnostics and does not open the interface")
    func interactiveViewRefusesABadFile() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("bad.ops", "queue q max 0\nop a work 1s\n")
        let result = try OpscopeBinary.run([path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(path):1:13: error: a cap of 0 would stall the queue without saying so"))
    }

    @Test("check of good files exits 0 with one summary line each")
    func checkGoodFiles() throws {
        let result = try OpscopeBinary.run(["check", "scenarios/01-chain.ops", "scenarios/02-cap.ops"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "scenarios/01-chain.ops: ok (1 queue, 3 operations, 0 timed actions, 4 expectations)",
                "scenarios/02-cap.ops: ok (1 queue, 6 operations, 0 timed actions, 2 expectations)",
            ])
    }

    @Test("check reports every error with file, line, column and caret, and exits 2")
    func checkReportsErrors() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let bad = try scratch.write(
            "bad.ops",
            """
            queue net max 2
            op fetch work 1s
            op parse work 400ms after fech

            """)
        let good = try scratch.write("good.ops", "op a work 1ms\n")
        let result = try OpscopeBinary.run(["check", bad, good])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(bad):3:27: error: unknown operation 'fech'"))
        #expect(result.stderr.contains("op parse work 400ms after fech\n                          ^"))
        #expect(result.stderr.contains("did you mean 'fetch'?"))
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0] == "\(bad): 1 error")
        #expect(lines[1].hasPrefix("\(good): ok"))
    }

    @Test("check of a file with only warnings exits 0")
    func checkWarningsOnly() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let path = try scratch.write("warn.ops", "queue used\nqueue idle\nop a on used work 1ms\n")
        let result = try OpscopeBinary.run(["check", path])
        #expect(result.status == 0)
        #expect(result.stderr.contains("\(path):2:7: warning:"))
        #expect(result.stdout.hasPrefix("\(path): ok with 1 warning"))
    }

    @Test("invalid UTF-8 and NUL bytes get a positioned error, not a crash")
    func checkBinaryGarbage() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        let url = scratch.directory.appendingPathComponent("garbage.ops")
        try Data([0x6F, 0x70, 0x20, 0x61, 0x20, 0xFF, 0x0A, 0x00, 0x0A]).write(to: url)
        let result = try OpscopeBinary.run(["check", url.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(url.path):1:6: error:"))
        #expect(result.stderr.contains("\(url.path):2:1: error:"))
    }

    @Test("check of 20,000 misspelt names is capped: a hundred errors with suggestions, then how many more")
    func checkCapsItsDiagnostics() throws {
        let scratch = try ScratchFiles()
        defer { scratch.remove() }
        var text = "queue q\nop o0 work 0ms\n"
        for i in 1..<20_000 { text += "op o\(i) work 0ms after p\(i - 1)\n" }
        // And one line of a megabyte with a mistake at its end.
        text += "op long work 0ms after " + String(repeating: "x", count: 1 << 20) + " stray\n"
        let path = try scratch.write("misspelt.ops", text)
        let result = try OpscopeBinary.run(["check", path], timeout: 120)
        #expect(result.status == 2)
        #expect(result.stdout == "\(path): 20001 errors\n")
        #expect(result.stderr.components(separatedBy: ": error: ").count - 1 == 100)
        #expect(result.stderr.contains("\(path):3:22: error: unknown operation 'p0'\nop o1 work 0ms after p0\n"))
        #expect(result.stderr.contains("note: did you mean 'o0'?"))
        #expect(
            result.stderr.hasSuffix(
                "\(path): note: 19901 more errors not shown (opscope shows the first 100 diagnostics of a file)\n"))
        #expect(result.stderr.utf8.count < 20_000)
    }
}
