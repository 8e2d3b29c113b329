import CommandSupport
import Foundation
import Interactive
import Katas
import LifecycleEngine
import RunEvents
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
    static let libraryVariable = ChildRun.libraryVariable

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
        let made = OwnClassBuild.library(for: scenario, scenarioPath: file.path, stop: StopRequest.process) {
            MessagePrinter.standardError.note("compiling your classes with \($0)…")
        }
        switch made {
        case .success(let path):
            return path
        case .failure(let why) where why.diagnostics.isEmpty && why.compilerText.isEmpty:
            throw UsageError(why.summary)
        case .failure(let why):
            if !why.compilerText.isEmpty { MessagePrinter.standardError.write(why.compilerText) }
            if why.diagnostics.isEmpty {
                MessagePrinter.standardError.error(why.summary)
            } else {
                ScenarioLoading.report(ParseResult(scenario: nil, diagnostics: why.diagnostics), file: file)
            }
            return nil
        }
    }

    /// Runs the child that records a run of the user's classes (`trace
    /// PATH --format jsonl` with `library` loaded) to its end, or to `stop`:
    /// how it ended, and what it recorded whole (a child killed mid-line
    /// leaves a part of a line, which is not kept).
    static func runChild(_ path: String, library: String, speed: Double, stop: StopRequest) throws
        -> (outcome: ChildProcess.Outcome, whole: ArraySlice<UInt8>)
    {
        var environment = ProcessInfo.processInfo.environment
        environment[libraryVariable] = library
        let outcome = try ChildProcess.run(
            InteractiveApp.ownExecutable, ["trace", path, "--format", "jsonl", "--speed", String(speed)],
            environment: environment, timeout: .infinity, keep: 1 << 30, stop: stop, stopGrace: 2)
        let whole = outcome.stdout.lastIndex(of: UInt8(ascii: "\n")).map { outcome.stdout[...$0] } ?? []
        return (outcome, whole)
    }

    /// The parent's side: checks the classes, builds the library, runs the
    /// child (`trace FILE --format jsonl` at `speed`) and keeps what it
    /// recorded. Nil after saying why there is no run (the classes do not
    /// fit, the build failed).
    static func record(_ file: SourceFile, _ scenario: Scenario, speed: Double) throws(UsageError) -> Recorded? {
        guard let library = try prepare(file, scenario) else { return nil }
        let (outcome, whole): (ChildProcess.Outcome, ArraySlice<UInt8>)
        do {
            (outcome, whole) = try runChild(file.path, library: library, speed: speed, stop: StopRequest.process)
        } catch {
            throw UsageError("\(error)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-own-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("run.jsonl").path
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

    /// `trace FILE --repeat N`: each run a child's, one after another,
    /// folded into the summary as a run in this process is. A run whose
    /// child crashed counts with what it recorded (it did not end).
    static func repeatTrace(
        _ file: SourceFile, _ scenario: Scenario, count: Int, speed: Double, format: TraceFormat,
        countsExpectations: Bool
    ) throws(UsageError) -> ExitStatus {
        guard let library = try prepare(file, scenario) else { return .usage }
        let child = recorder(file.path, library: library, speed: speed)
        return MainActor.assumeIsolated {
            TraceRepeat.run(
                scenario, path: file.path, count: count, speed: speed, format: format,
                countsExpectations: countsExpectations, recordRun: child)
        }
    }

    /// A run of the user's classes made by a child to its end, on the
    /// calling thread, as its events (those it recorded whole; none when it
    /// could not start). A child that did not end by itself is said on
    /// standard error as it happens.
    /// `stop` ends the child at once (its group killed).
    static func recorder(_ path: String, library: String, speed: Double, stop: StopRequest = .process)
        -> @Sendable () -> [LifecycleEvent]
    {
        {
            guard let (outcome, whole) = try? runChild(path, library: library, speed: speed, stop: stop),
                outcome.status != .stopped
            else { return [] }
            if let ending = ChildRun.ending(outcome) { MessagePrinter.standardError.error(ending) }
            return (try? RecordingDecoder.decode(Array(whole)))?.events ?? []
        }
    }

    /// `opscope FILE`: the board, live, over a child that runs the user's
    /// classes (`ChildRun`, `OwnClassLive`); each restart is a new child.
    static func board(_ file: SourceFile, _ scenario: Scenario, options: InteractiveOptions) throws(UsageError)
        -> ExitStatus
    {
        // Made here first, so that what is wrong is said as `check` says
        // it; each run of the board finds it kept.
        guard try prepare(file, scenario) != nil else { return .usage }
        let opening = ScenarioOpening(scenario: scenario, file: file)
        return MainActor.assumeIsolated {
            InteractiveApp.launch(opening, picker: PickerList([]), paths: [], options: options)
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
