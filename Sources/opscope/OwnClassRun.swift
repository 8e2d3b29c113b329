import CommandSupport
import Foundation
import Interactive
import Katas
import LifecycleEngine
import RunFormats
import ScenarioKit
import Screen
import TextKit
import Tracing

/// `opscope trace FILE` of a scenario with `class TYPE`: the user's classes
/// run on the real engine in a child opscope, and the trace is written
/// from what the child recorded.
///
/// The parent checks the classes (`OwnCodeCheck`), builds the library of
/// the user's files and the watched subclasses (`OwnClassGlue`; kept in
/// the cache like a kata's program), and runs `opscope trace FILE --format
/// jsonl` as its child with `OPSCOPE_OWN_LIBRARY` naming the library. The
/// child loads it and runs the scenario; its standard output is the
/// recording. Whatever the child did (finished, crashed in the user's
/// code, was stopped), the parent writes the recording it got in the
/// format asked for, and says how the child ended when it did not end by
/// itself: the user's code never takes this opscope down.
enum OwnClassRun {
    /// The environment variable that tells a child `trace` where the
    /// library is.
    static let libraryVariable = "OPSCOPE_OWN_LIBRARY"

    /// This opscope is the child of a trace of the user's classes.
    static var isChild: Bool { !(ProcessInfo.processInfo.environment[libraryVariable] ?? "").isEmpty }

    /// The child's recording goes to what was its standard output, which
    /// from then on is its standard error: a `print` in the user's code
    /// is theirs, and never a line of the recording.
    static let recordingDescriptor: Int32 = {
        fflush(nil)
        let recording = dup(STDOUT_FILENO)
        guard recording >= 0 else { return STDOUT_FILENO }
        _ = fcntl(recording, F_SETFD, FD_CLOEXEC)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return recording
    }()

    /// The compiler's options for the library: as for `check` (Swift 5
    /// language mode), unoptimised (a trap in the user's code says its
    /// reason and line), a shared library with a module name of its own.
    static let libraryFlags =
        OwnCodeCheck.flags + ["-Onone", "-emit-library", "-module-name", "OpscopeOwnCode", "-diagnostic-style", "llvm"]

    /// The child's side: the library `OPSCOPE_OWN_LIBRARY` names, loaded
    /// for `scenario`; nil when the variable is not set.
    static func libraryForChild(_ scenario: Scenario) throws(UsageError) -> OwnClassLibrary? {
        guard let path = ProcessInfo.processInfo.environment[libraryVariable], !path.isEmpty else { return nil }
        do {
            return try OwnClassLibrary(path: path, types: OwnClassGlue(scenario).types)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// A run of the user's classes, recorded by the child: a file in a
    /// folder of this process's, removed by `remove()`.
    struct Recorded {
        /// The recording: what the child wrote, cut at its last whole line.
        var path: String
        /// How the child ended when it did not end by itself (said on
        /// standard error already); nil when it did.
        var ending: String?
        /// It recorded nothing at all.
        var isEmpty: Bool
        let folder: URL

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// The library of `scenario`'s classes, checked and built (or kept
    /// from before); nil after saying why there is none (the classes do
    /// not fit, the build failed).
    static func prepare(_ file: SourceFile, _ scenario: Scenario) throws(UsageError) -> String? {
        guard EngineState.processDefault != nil else {
            throw UsageError(
                "your classes need Foundation's state to be read (what it was told of each finish), and "
                    + "\(EngineState.environmentVariable)=off turns that off")
        }
        let findings = OwnCodeCheck.check(scenario, scenarioPath: file.path)
        if findings.hasErrors {
            if !findings.compilerText.isEmpty { MessagePrinter.standardError.write(findings.compilerText) }
            let result = ParseResult(scenario: nil, diagnostics: findings.diagnostics)
            ScenarioLoading.report(result, file: file)
            return nil
        }
        return build(scenario, scenarioPath: file.path)
    }

    /// This program, to run as the child.
    static var me: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The parent's side: checks the classes, builds the library, runs the
    /// child (`trace FILE --format jsonl` at `speed`) and keeps what it
    /// recorded. Nil after saying why there is no run (the classes do not
    /// fit, the build failed).
    static func record(_ file: SourceFile, _ scenario: Scenario, speed: Double) throws(UsageError) -> Recorded? {
        guard let library = try prepare(file, scenario) else { return nil }
        var environment = ProcessInfo.processInfo.environment
        environment[libraryVariable] = library
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(
                me, ["trace", file.path, "--format", "jsonl", "--speed", String(speed)], environment: environment,
                timeout: .infinity, keep: 1 << 30, stop: StopRequest.process, stopGrace: 2)
        } catch {
            throw UsageError("\(error)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-own-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("run.jsonl").path
        // A child killed mid-line leaves a part of a line: the recording is
        // what it wrote whole.
        let whole = outcome.stdout.lastIndex(of: UInt8(ascii: "\n")).map { outcome.stdout[...$0] } ?? []
        guard FileManager.default.createFile(atPath: path, contents: Data(whole)) else {
            try? FileManager.default.removeItem(at: folder)
            throw UsageError("cannot write the run's recording in \(folder.path)")
        }
        let ending = ChildRun.ending(outcome)
        if let ending {
            MessagePrinter.standardError.error(ending)
            MessagePrinter.standardError.note(
                whole.isEmpty ? "it had recorded nothing yet" : "what it recorded up to then follows")
        } else {
            // What the child said: the user's own prints (standard output
            // is theirs too, in the child), or why it could not run.
            MessagePrinter.standardError.write(String(decoding: outcome.stderr, as: UTF8.self))
        }
        return Recorded(path: path, ending: ending, isEmpty: whole.isEmpty, folder: folder)
    }

    /// `trace FILE`: the child's recording written as `format`. The exit
    /// status is the trace's, or 1 when the child did not end by itself.
    static func trace(
        _ file: SourceFile, _ scenario: Scenario, format: TraceFormat, width: Int, speed: Double, verbose: Bool
    ) throws(UsageError) -> ExitStatus {
        guard let recorded = try record(file, scenario, speed: speed) else { return .usage }
        defer { recorded.remove() }
        if recorded.isEmpty { return .failed }
        let status = try TraceCommand.traceRecording(
            at: recorded.path, format: format, width: width, verbose: verbose)
        return recorded.ending == nil ? status : .failed
    }

    /// `opscope FILE`: the board, live, over a child that runs the user's
    /// classes (`ChildRun`, `OwnClassLive`); each restart is a new child.
    static func board(_ file: SourceFile, _ scenario: Scenario, options: InteractiveOptions) throws(UsageError)
        -> ExitStatus
    {
        guard let library = try prepare(file, scenario) else { return .usage }
        var environment = ProcessInfo.processInfo.environment
        environment[libraryVariable] = library
        environment[OwnClassLive.variable] = "1"
        let launch = ChildRun.Launch(
            program: me, arguments: ["trace", file.path, "--format", "jsonl"], environment: environment,
            source: String(decoding: file.bytes, as: UTF8.self))
        var opening = ScenarioOpening(scenario: scenario, file: file)
        opening.makeRun = { _, options, wake in ChildRun(launch: launch, options: options, onEvents: wake) }
        return MainActor.assumeIsolated {
            InteractiveApp.launch(opening, picker: PickerList([]), paths: [], options: options)
        }
    }

    /// The library of `scenario`'s classes, built now or kept from before;
    /// nil after saying why there is none.
    private static func build(_ scenario: Scenario, scenarioPath: String) -> String? {
        guard let builder = SwiftBuild.forUserCodeSayingWhyNot() else { return nil }
        var sources: [SwiftBuild.Source] = []
        for code in scenario.code {
            let path = OwnCodeCheck.resolve(code, scenarioPath: scenarioPath)
            guard let data = FileManager.default.contents(atPath: path) else {
                MessagePrinter.standardError.error("cannot read \(path)")
                return nil
            }
            // By its whole path: two files of one name in two folders
            // stay two files for the compiler.
            let whole = URL(fileURLWithPath: path).standardizedFileURL.path
            sources.append(SwiftBuild.Source(name: whole, contents: Array(data)))
        }
        sources.append(
            SwiftBuild.Source(name: OwnClassGlue.fileName, contents: Array(OwnClassGlue(scenario).source.utf8)))
        if !FileManager.default.fileExists(atPath: builder.productPath(sources, flags: libraryFlags)) {
            MessagePrinter.standardError.note("compiling your classes with \(builder.compiler.path)…")
        }
        switch builder.build(sources, flags: libraryFlags, stop: StopRequest.process) {
        case .cached(let path), .built(let path, _):
            return path
        case .failed(let said, _):
            // The errors, each with its notes (the check passed: they are
            // the watch's, which names the user's class).
            let errors = OwnCodeCheck.errors(CompilerDiagnostic.parse(said))
            let text = errors.isEmpty ? said : errors.flatMap(\.text).joined(separator: "\n")
            MessagePrinter.standardError.write(text.hasSuffix("\n") ? text : text + "\n")
            MessagePrinter.standardError.error("swiftc could not build your classes with opscope's watch of them")
            return nil
        case .timedOut(let seconds):
            MessagePrinter.standardError.error("swiftc had not finished after \(Spelling.seconds(seconds)): stopped")
            return nil
        case .stopped:
            return nil
        case .unavailable(let reason):
            MessagePrinter.standardError.error(reason)
            return nil
        }
    }
}

extension SwiftBuild {
    /// `forUserCode` of this process's environment, or nil after saying on
    /// standard error why there is none.
    static func forUserCodeSayingWhyNot() -> SwiftBuild? {
        switch forUserCode(environment: ProcessInfo.processInfo.environment) {
        case .success(let made): return made
        case .failure(let why):
            MessagePrinter.standardError.error(why.description)
            return nil
        }
    }
}
