import Testing

@testable import CommandSupport

/// The command line: options with values, flags, positionals, and every
/// way to get them wrong.
@Suite struct ArgumentsTests {
    @Test func optionsFlagsAndPositionalsInAnyOrder() throws {
        let args = try Arguments(
            ["--speed", "4", "a.ops", "--paused", "--format=jsonl", "--", "--not-an-option"],
            options: ["speed", "format"], flags: ["paused"])
        #expect(args.positionals == ["a.ops", "--not-an-option"])
        #expect(args.value("speed") == "4" && args.value("format") == "jsonl")
        #expect(args.has("paused") && !args.has("lesson"))
        #expect(args.value("width") == nil)
    }

    @Test func aLoneDashIsAPositional() throws {
        #expect(try Arguments(["-"]).positionals == ["-"])
    }

    @Test(arguments: [
        (["--sped", "2"], "unknown option '--sped' (did you mean '--speed'?)"),
        (["--zzzzzz"], "unknown option '--zzzzzz'"),
        (["--speed"], "option '--speed' needs a value"),
        (["--paused=yes"], "'--paused' takes no value, not '--paused=yes'"),
    ])
    func wrongArgumentsSayWhat(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError.self) { try Arguments(arguments, options: ["speed"], flags: ["paused"]) }
        do {
            _ = try Arguments(arguments, options: ["speed"], flags: ["paused"])
        } catch {
            #expect(error.message == message)
        }
    }

    @Test(arguments: [
        ("2", 2.0), ("0.25", 0.25), (".5", 0.5), ("1000", 1000.0),
    ])
    func aSpeedIsAPlainDecimalInItsRange(_ text: String, _ value: Double) throws {
        let args = try Arguments(["--speed", text], options: ["speed"])
        #expect(try args.speed("speed", in: 0.01...1000, default: 1) == value)
    }

    @Test(arguments: ["-1", "1e3", "inf", "nan", "0x10", "2000", "0.001", "", "1.2.3", "1234567890123"])
    func aSpeedOutsideItsRangeOrFormIsRefused(_ text: String) throws {
        let args = try Arguments(["--speed=\(text)"], options: ["speed"])
        #expect(throws: UsageError("'--speed' is a decimal number from 0.01 to 1000, not '\(text)'")) {
            try args.speed("speed", in: 0.01...1000, default: 1)
        }
    }

    @Test func anAbsentSpeedIsTheDefaultOrNil() throws {
        let args = try Arguments([], options: ["speed"])
        #expect(try args.speed("speed", in: 0.01...1000, default: 1) == 1)
        #expect(try args.speed("speed", in: 0.01...1000) == nil)
    }

    @Test func aWholeNumberIsDigitsInItsRange() throws {
        #expect(try Arguments(["--width", "80"], options: ["width"]).whole("width", in: 40...1000, default: 100) == 80)
        #expect(try Arguments([], options: ["width"]).whole("width", in: 40...1000, default: 100) == 100)
        for text in ["39", "1001", "-50", "+50", "8O", ""] {
            let args = try Arguments(["--width=\(text)"], options: ["width"])
            #expect(throws: UsageError.self, "\(text)") { try args.whole("width", in: 40...1000, default: 100) }
        }
    }

    @Test func anErrorIsOneLineAndItsStatusIsTwo() {
        let printed = MemorySink()
        let printer = MessagePrinter { printed.write($0) }
        #expect(UsageError("no such file 'x'").report(to: printer) == .usage)
        #expect(printed.text == "opscope: error: no such file 'x'\n")
        #expect(UsageError.unknownOption("--x").unknownOption == "--x")
    }
}
