import CommandSupport
import CursesBackend
import Foundation
import Katas
import ScenarioKit
import TextKit

/// `opscope kata [NAME [FILE.swift]]`: write an `Operation` subclass, and
/// the real engine grades it. The file is compiled with the kata's harness
/// by the toolchain's `swiftc`, cached, and run as a child whose crash or
/// hang ends only that run (`ChildProcess`).
enum KataCommand: Subcommand {
    static let spec = CommandSpec(
        name: "kata", abstract: "Write an Operation subclass; the real engine grades it",
        usage: [["kata"], ["kata", "NAME", "[FILE.swift]", .optional("width"), .optional("board")]],
        about: """
            With no NAME, lists the katas. With NAME, checks FILE.swift: by default
            NAME.swift in the current folder, written first as a starting point when
            there is none (a file that exists is never written over).

            The file is compiled with the kata's checks by the toolchain's swiftc
            (Swift 5 language mode, -Onone) and kept under $XDG_CACHE_HOME/opscope (else
            ~/.cache/opscope), so that checking the same file again starts at once.
            The checks run as a program of their own, on this Foundation's own
            OperationQueue: each says what your class did and, when it failed, the
            rule it broke. A crash or a hang of that program ends the check under way,
            not opscope. OPSCOPE_SWIFTC names a compiler to use instead of the one
            on PATH.
            """,
        options: [
            .value("width", "N", "wrap the report to N columns, 40 to 1000 (default: the terminal's width)"),
            .flag(
                "board",
                "then open the board on the run of the first failing check a scenario shows: your class, made as "
                    + "the check makes it, on the real engine"),
        ],
        epilogue: """
            EXIT STATUS: 0 when every check passed, 1 when one failed or was not
            decided, 2 when the file does not compile or the command line is wrong.
            """)

    /// The compiler's options: the language mode most app code is written
    /// in; no optimisation, so that a trap in the user's code says its
    /// reason and line (an optimised force-unwrap of nil dies without a
    /// word); llvm's diagnostic style, which `CompilerDiagnostic` reads.
    static let flags = ["-swift-version", "5", "-Onone", "-diagnostic-style", "llvm"]
    /// The race check's: the thread sanitizer, and lines for its stacks.
    static let raceFlags = ["-swift-version", "5", "-Onone", "-g", "-sanitize=thread", "-diagnostic-style", "llvm"]

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        let words = args.positionals
        guard let name = words.first else {
            StandardOutput.write(KataReport.list())
            return .success
        }
        guard words.count <= 2 else { throw UsageError("'kata' takes a kata's name and at most one file") }
        guard let kata = Kata.named(name) else {
            let hint = Suggestion.hint(Suggestion.nearest(to: name, in: Kata.all.map(\.name)))
            throw UsageError("no kata is called '\(name)'\(hint) (run 'opscope kata' for the list)")
        }
        let path = words.count == 2 ? words[1] : kata.starterFileName
        if words.count == 1 { try writeStarter(kata, at: path) }
        let file = try ScenarioLoading.source(at: path, kind: "a Swift file")
        let width = try args.value("width") != nil ? args.whole("width", in: 40...1000, default: 80) : nil
        let onBoard = args.has("board")
        if onBoard, isatty(STDOUT_FILENO) != 1 || isatty(STDIN_FILENO) != 1 {
            throw UsageError("'--board' opens the board: it needs a terminal")
        }
        StandardOutput.write(KataReport.heading(kata, file: path) + "\n")
        guard let programs = build(kata, path: path, contents: file.bytes) else { return .usage }
        let (status, verdicts) = check(kata, programs, width: width ?? TerminalSize.of(descriptor: 1)?.columns)
        let shown = verdicts.first { verdict in
            if case .failed = verdict.grade { return kata.board?.scenes[verdict.check] != nil }
            return false
        }
        guard let shown, StopRequest.process.status == nil else { return status }
        if onBoard {
            try showOnBoard(kata, check: shown.check, userFile: programs.userFile)
        } else if isatty(STDOUT_FILENO) == 1 {
            StandardOutput.write(
                "\n'opscope kata \(kata.name) \(TerminalText.escaped(path)) --board' shows the run of the first "
                    + "failing check on the board: \(shown.title)\n")
        }
        return status
    }

    /// Writes the kata's starting file at `path` unless something is there.
    private static func writeStarter(_ kata: Kata, at path: String) throws(UsageError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 {
            if errno == EEXIST { return }
            throw UsageError("cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        let bytes = Array(kata.starter.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else {
            unlink(path)
            throw UsageError("cannot write '\(path)'")
        }
        StandardOutput.write(
            "wrote \(TerminalText.escaped(path)): a start that compiles and fails its checks; "
                + "write \(kata.className) there and run 'opscope kata \(kata.name)' again\n")
    }

    /// The kata's programs built with the user's file (the race check's
    /// too, with the thread sanitizer, when the kata has one), or nil after
    /// saying why there are none (no compiler, no cache folder, a compile
    /// error). The race program is nil, and says why, when only it failed.
    private static func build(_ kata: Kata, path: String, contents: [UInt8]) -> Programs? {
        guard let builder = SwiftBuild.forUserCodeSayingWhyNot() else { return nil }
        let compiler = builder.compiler
        let userFile = URL(fileURLWithPath: path).standardizedFileURL.path
        func sources(_ harness: String, support: Bool) -> [SwiftBuild.Source] {
            [SwiftBuild.Source(name: "main.swift", contents: Array(harness.utf8))]
                + (support ? [SwiftBuild.Source(name: Kata.supportFileName, contents: Array(Kata.support.utf8))] : [])
                + [SwiftBuild.Source(name: userFile, contents: contents)]
        }
        let main = sources(kata.harness, support: true)
        let race = kata.raceHarness.map { sources($0.program, support: false) }
        let missing = [(main, flags)] + (race.map { [($0, raceFlags)] } ?? [])
        if missing.contains(where: { !FileManager.default.isExecutableFile(atPath: builder.productPath($0, flags: $1)) }
        ) {
            StandardOutput.write("compiling with \(TerminalText.escaped(compiler.path))…\n")
        }
        var seconds = 0.0
        let program: String
        switch builder.build(main, flags: flags, stop: StopRequest.process) {
        case .cached(let path):
            program = path
        case .built(let path, let took):
            (program, seconds) = (path, took)
        case .failed(let diagnostics, _):
            reportCompileErrors(kata, diagnostics: diagnostics, userFile: userFile)
            return nil
        case .timedOut(let took):
            MessagePrinter.standardError.error("swiftc had not finished after \(Spelling.seconds(took)): stopped")
            return nil
        case .unavailable(let reason):
            MessagePrinter.standardError.error(reason)
            return nil
        case .stopped:
            return nil
        }
        var programs = Programs(
            main: program, race: nil, raceUnbuilt: nil, userFile: userFile, shownAs: path, source: contents)
        if let race {
            switch builder.build(race, flags: raceFlags, stop: StopRequest.process) {
            case .cached(let path): programs.race = path
            case .built(let path, let took): (programs.race, seconds) = (path, seconds + took)
            case .failed(let diagnostics, _):
                let first = CompilerDiagnostic.parse(diagnostics).first { $0.severity == "error" }
                programs.raceUnbuilt = "swiftc -sanitize=thread failed" + (first.map { ": \($0.message)" } ?? "")
            case .timedOut(let took):
                programs.raceUnbuilt = "swiftc -sanitize=thread had not finished after \(Spelling.seconds(took))"
            case .unavailable(let reason): programs.raceUnbuilt = reason
            case .stopped: return nil
            }
        }
        if seconds > 0 {
            StandardOutput.write("compiled in \(Spelling.seconds(seconds)) (kept for the next check of this file)\n")
        }
        return programs
    }

    /// What `build` made: the harness's program, the race check's (nil,
    /// with why, when it could not be built), and the user's file.
    struct Programs {
        var main: String
        var race: String?
        var raceUnbuilt: String?
        var userFile: String
        /// The user's file as they named it, for messages.
        var shownAs: String
        var source: [UInt8]
    }
}
