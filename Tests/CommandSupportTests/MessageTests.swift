import CommandSupport
import Testing

/// What opscope says on standard error of its own, and how a command ends.
@Suite struct MessageTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let message: ProgramMessage
        let line: String
    }

    static let cases: [Case] = [
        Case(
            testDescription: "an error", message: .error("no such file 'x.ops'"),
            line: "opscope: error: no such file 'x.ops'\n"),
        Case(
            testDescription: "a warning", message: .warning("a.ops promises its expectations only up to speed 4"),
            line: "opscope: warning: a.ops promises its expectations only up to speed 4\n"),
        Case(
            testDescription: "a note", message: .note("trace stopped by SIGINT"),
            line: "opscope: trace stopped by SIGINT\n"),
    ]

    @Test(arguments: cases)
    func eachMessageIsOneLineOfTheOnePrinter(_ c: Case) {
        let printed = MemorySink()
        let printer = MessagePrinter { printed.write($0) }
        printer.print(c.message)
        #expect(printed.text == c.line)
    }

    @Test func theNamedFormsAreTheMessages() {
        let printed = MemorySink()
        let printer = MessagePrinter { printed.write($0) }
        printer.error("e")
        printer.warning("w")
        printer.note("n")
        printer.write("as it is\n")
        #expect(printed.text == "opscope: error: e\nopscope: warning: w\nopscope: n\nas it is\n")
    }

    @Test func theStatusesAreTheLanguageReferences() {
        #expect(ExitStatus.success.code == 0)
        #expect(ExitStatus.failed.code == 1)
        #expect(ExitStatus.usage.code == 2)
        #expect(ExitStatus.stopped(signal: 2).code == 130)
        #expect(ExitStatus.stopped(signal: 15).code == 143)
    }

    @Test func aMemorySinkKeepsWhatIsWrittenOrFailsAsTold() {
        var out = OutputBuffer(sink: MemorySink(), flushAt: 4)
        out.append("abcdef")
        out.flushIfFull()
        #expect(out.failure == nil)
        let failing = MemorySink(failing: 28)
        var full = OutputBuffer(sink: failing, flushAt: 4)
        full.append("abc")
        full.flush()
        #expect(full.failure == 28)
        #expect(failing.bytes.isEmpty)
    }
}
