import CommandSupport
import CursesBackend
import Foundation
import Katas
import TextKit

extension KataCommand {
    /// Runs the kata's programs, printing each check's verdict as its line
    /// comes (the race check's once its program ended), then those not
    /// decided and the count.
    /// Returns the status and every check's verdict.
    static func check(_ kata: Kata, _ programs: Programs, width: Int?) -> (ExitStatus, [KataVerdict]) {
        var lines: [KataLine] = []
        // A crash says its reason on one line (`Fatal error: …`), which is
        // what the report shows; the runtime's backtrace would add seconds.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(
                programs.main, [], environment: environment, timeout: kata.timeLimit, stop: StopRequest.process
            ) { text in
                guard let line = KataLine.parse(text), let verdict = KataGrader.verdict(kata, line) else { return }
                lines.append(line)
                StandardOutput.write(KataReport.text(verdict, width: width))
            }
        } catch {
            MessagePrinter.standardError.error("cannot run the kata's program: \(error)")
            return (.failed, [])
        }
        var raceEnding: KataEnding?
        if let race = programs.race, let harness = kata.raceHarness, outcome.status != .stopped {
            environment["TSAN_OPTIONS"] = "halt_on_error=1 exitcode=66"
            do {
                let ran = try ChildProcess.run(
                    race, [], environment: environment, timeout: kata.timeLimit, stop: StopRequest.process)
                raceEnding = ending(of: ran, programs)
                let line = RaceReport.line(
                    output: String(decoding: ran.stdout, as: UTF8.self),
                    stderr: String(decoding: ran.stderr, as: UTF8.self), exitedCleanly: ran.status == .exited(0),
                    total: harness.operations, userFile: programs.userFile,
                    source: String(decoding: programs.source, as: UTF8.self))
                if let line, let verdict = KataGrader.verdict(kata, line) {
                    lines.append(line)
                    StandardOutput.write(KataReport.text(verdict, width: width))
                }
            } catch {
                raceEnding = .unstarted("\(error)")
            }
        } else if let why = programs.raceUnbuilt {
            raceEnding = .unbuilt(why)
        }
        let verdicts = KataGrader.grade(
            kata, lines: lines, ending: ending(of: outcome, programs), raceEnding: raceEnding)
        // Those no line decided (the program ended first) are said last.
        for verdict in verdicts where !lines.contains(where: { $0.check == verdict.check }) {
            StandardOutput.write(KataReport.text(verdict, width: width))
        }
        StandardOutput.write(KataReport.summary(verdicts) + "\n")
        let passed = verdicts.allSatisfy(\.passed)
        // A check the user stopped decides nothing to keep.
        if StopRequest.process.status == nil { keep(kata, passed: passed, width: width) }
        return (passed ? .success : .failed, verdicts)
    }

    /// How the program ended, with Foundation's message when it crashed:
    /// the last `Fatal error` line it wrote, else its last line. Swift
    /// names the file of a trap as the module's (`program/NAME.swift:29`):
    /// the message names it as the user did.
    static func ending(of outcome: ChildProcess.Outcome, _ programs: Programs) -> KataEnding {
        switch outcome.status {
        case .exited(let status):
            return .exited(status)
        case .signalled(let signal):
            let lines = String(decoding: outcome.stderr, as: UTF8.self).split(separator: "\n").map(String.init)
            var message = lines.last { $0.contains("Fatal error") } ?? lines.last ?? ""
            let asBuilt = "program/" + (programs.userFile as NSString).lastPathComponent + ":"
            if message.hasPrefix(asBuilt) { message = programs.shownAs + ":" + message.dropFirst(asBuilt.count) }
            return .crashed(signal: signal, message: message)
        case .timedOut(let seconds):
            return .stopped(afterSeconds: seconds)
        case .stopped:
            return .interrupted
        }
    }

    /// The compiler's refusal: the errors in the user's file as swiftc gave
    /// them (each with its source line and caret); when there are none, the
    /// harness could not use the file's class, said as what the kata needs.
    static func reportCompileErrors(_ kata: Kata, diagnostics: String, userFile: String) {
        let all = CompilerDiagnostic.parse(diagnostics)
        let inUserFile = OwnCodeCheck.userErrors(all, in: [userFile])
        if !inUserFile.isEmpty {
            MessagePrinter.standardError.write(inUserFile.flatMap(\.text).joined(separator: "\n") + "\n")
            MessagePrinter.standardError.error(
                "\(Spelling.count(inUserFile.filter { $0.severity == "error" }.count, "error")) in "
                    + "\(userFile): nothing was checked")
            return
        }
        let harness = all.filter { $0.severity == "error" }.map(\.message)
        guard !harness.isEmpty else {
            // Neither file's: the compiler's own failure, whole.
            MessagePrinter.standardError.write(diagnostics.hasSuffix("\n") ? diagnostics : diagnostics + "\n")
            MessagePrinter.standardError.error("swiftc failed: nothing was checked")
            return
        }
        MessagePrinter.standardError.error(
            "\(userFile) compiles, but the kata's checks cannot use it: \(kata.requirement)")
        // The first: the rest follow from it, as a rule.
        MessagePrinter.standardError.note("swiftc said: \(harness[0])")
    }
}
