import Foundation
import LifecycleEngine
import ScenarioKit
import TextKit

/// The library a run of the user's classes loads: their files checked
/// (`OwnCodeCheck`) and compiled with opscope's watch of each class
/// (`OwnClassGlue`) into a shared library, kept in the cache like a kata's
/// program. What `trace` makes before its child runs, and what a board's
/// child run (`ChildRun`) makes before it starts, off the main thread.
package enum OwnClassBuild {
    /// The compiler's options for the library: as for `check` (Swift 5
    /// language mode), unoptimised (a trap in the user's code says its
    /// reason and line), a shared library with a module name of its own.
    package static let flags =
        OwnCodeCheck.flags + ["-Onone", "-emit-library", "-module-name", "OpscopeOwnCode", "-diagnostic-style", "llvm"]

    /// Why there is no library, for the user.
    package struct Failure: Error, Sendable {
        /// At the scenario's lines (a class that does not fit, a missing
        /// file), for a diagnostic printer.
        package var diagnostics: [Diagnostic] = []
        /// What swiftc said, as it said it, each error with its notes.
        package var compilerText = ""
        /// The failure in one sentence, lower-case.
        package var summary: String
    }

    /// The library of `scenario`'s classes (read from `scenarioPath`),
    /// checked and built now or kept from before. `compiling` is told the
    /// compiler's path before a compile that is not kept.
    package static func library(
        for scenario: Scenario, scenarioPath: String, stop: StopRequest?,
        environment: [String: String] = ProcessInfo.processInfo.environment, compiling: (String) -> Void = { _ in }
    ) -> Result<String, Failure> {
        guard EngineState.processDefault != nil else {
            return .failure(
                Failure(
                    summary: "your classes need Foundation's state to be read (what it was told of each finish), "
                        + "and \(EngineState.environmentVariable)=off turns that off"))
        }
        let findings = OwnCodeCheck.check(scenario, scenarioPath: scenarioPath, environment: environment)
        if findings.hasErrors {
            let first = findings.diagnostics.first(where: \.isError)?.message
            return .failure(
                Failure(
                    diagnostics: findings.diagnostics, compilerText: findings.compilerText,
                    summary: first ?? "\(Spelling.count(findings.compilerErrors, "error")) in your code"))
        }
        let builder: SwiftBuild
        switch SwiftBuild.forUserCode(environment: environment) {
        case .success(let made): builder = made
        case .failure(let why): return .failure(Failure(summary: why.description))
        }
        var sources: [SwiftBuild.Source] = []
        for code in scenario.code {
            let path = OwnCodeCheck.resolve(code, scenarioPath: scenarioPath)
            guard let data = FileManager.default.contents(atPath: path) else {
                return .failure(Failure(summary: "cannot read \(path)"))
            }
            // By its whole path: two files of one name in two folders
            // stay two files for the compiler.
            let whole = URL(fileURLWithPath: path).standardizedFileURL.path
            sources.append(SwiftBuild.Source(name: whole, contents: Array(data)))
        }
        sources.append(
            SwiftBuild.Source(name: OwnClassGlue.fileName, contents: Array(OwnClassGlue(scenario).source.utf8)))
        if !FileManager.default.fileExists(atPath: builder.productPath(sources, flags: flags)) {
            compiling(builder.compiler.path)
        }
        switch builder.build(sources, flags: flags, stop: stop) {
        case .cached(let path), .built(let path, _):
            return .success(path)
        case .failed(let said, _):
            // The errors, each with its notes (the check passed: they are
            // the watch's, which names the user's class).
            let errors = OwnCodeCheck.errors(CompilerDiagnostic.parse(said))
            let text = errors.isEmpty ? said : errors.flatMap(\.text).joined(separator: "\n")
            return .failure(
                Failure(
                    compilerText: text.hasSuffix("\n") ? text : text + "\n",
                    summary: "swiftc could not build your classes with opscope's watch of them"))
        case .timedOut(let seconds):
            return .failure(Failure(summary: "swiftc had not finished after \(Spelling.seconds(seconds)): stopped"))
        case .stopped:
            return .failure(Failure(summary: "the build of your classes was stopped"))
        case .unavailable(let reason):
            return .failure(Failure(summary: reason))
        }
    }
}
