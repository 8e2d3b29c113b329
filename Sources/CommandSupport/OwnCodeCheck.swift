import Foundation
import ScenarioKit
import TextKit

/// Checks a scenario's `code` files and `class` clauses with the compiler:
/// each file is there, the files compile, and each class is what opscope's
/// programs need (`OwnClassProbe`). Passed checks are kept in the cache
/// (`SwiftBuild.typecheck`), so a second `check` of the same files costs
/// no compile.
package enum OwnCodeCheck {
    /// What the check found.
    package struct Findings: Sendable {
        /// At the scenario's lines: a missing file, a class that is not
        /// what opscope needs, no compiler.
        package var diagnostics: [Diagnostic] = []
        /// The errors in the user's files, as swiftc wrote them (each with
        /// its source line and caret), and the compiler's own failure when
        /// it is neither the files' nor the probe's.
        package var compilerText = ""
        /// How many errors `compilerText` holds (at least 1 when it is not empty).
        package var compilerErrors = 0

        package var hasErrors: Bool { !compilerText.isEmpty || diagnostics.contains(where: \.isError) }
    }

    /// The compiler's options for the user's code: the language mode most
    /// app code is written in (as for a kata); llvm's diagnostic style,
    /// which `CompilerDiagnostic` reads.
    package static let flags = ["-swift-version", "5"]

    /// Where `file`, written in the scenario at `scenarioPath`, is: as it
    /// is when absolute, else in the scenario's folder.
    package static func resolve(_ file: CodeFile, scenarioPath: String) -> String {
        if file.path.hasPrefix("/") { return file.path }
        let folder = (scenarioPath as NSString).deletingLastPathComponent
        return folder.isEmpty ? file.path : folder + "/" + file.path
    }

    /// Checks `scenario` (read from `scenarioPath`).
    package static func check(
        _ scenario: Scenario, scenarioPath: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Findings {
        var findings = Findings()
        guard !scenario.code.isEmpty else { return findings }
        var sources: [SwiftBuild.Source] = []
        for file in scenario.code {
            let path = resolve(file, scenarioPath: scenarioPath)
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                findings.diagnostics.append(.codeFileMissing(file.path, at: path, location: file.location))
            } else if isDirectory.boolValue {
                findings.diagnostics.append(
                    .codeFileUnreadable(file.path, why: "it is a folder", location: file.location))
            } else if let data = FileManager.default.contents(atPath: path) {
                sources.append(SwiftBuild.Source(name: path, contents: Array(data)))
            } else {
                findings.diagnostics.append(
                    .codeFileUnreadable(file.path, why: "it cannot be read", location: file.location))
            }
        }
        let probe = OwnClassProbe(scenario)
        guard findings.diagnostics.isEmpty, !probe.types.isEmpty, let first = scenario.code.first else {
            return findings
        }
        let builder: SwiftBuild
        switch SwiftBuild.forUserCode(environment: environment) {
        case .success(let made): builder = made
        case .failure(let why):
            findings.diagnostics.append(.classesUnchecked(why.description, location: first.location))
            return findings
        }
        let probeSource = SwiftBuild.Source(name: OwnClassProbe.fileName, contents: Array(probe.source.utf8))
        switch builder.typecheck(sources + [probeSource], flags: flags) {
        case .cached, .built:
            break
        case .failed(let said, _):
            let compiler = CompilerDiagnostic.parse(said)
            let names = Set(sources.map(\.name))
            let inUserFiles = userErrors(compiler, in: names)
            if !inUserFiles.isEmpty {
                findings.compilerText = inUserFiles.flatMap(\.text).joined(separator: "\n") + "\n"
                findings.compilerErrors = inUserFiles.count(where: { $0.severity == "error" })
                return findings
            }
            let files = Spelling.list(scenario.code.map { "'\($0.path)'" })
            let found = probe.diagnostics(from: compiler, in: scenario, files: files)
            if found.isEmpty {
                findings.compilerText = said.hasSuffix("\n") ? said : said + "\n"
                findings.compilerErrors = max(1, compiler.count(where: { $0.severity == "error" }))
            } else {
                findings.diagnostics += found
            }
        case .timedOut(let seconds):
            findings.diagnostics.append(
                .classesUnchecked("swiftc had not finished after \(Int(seconds))s", location: first.location))
        case .stopped:
            findings.diagnostics.append(.classesUnchecked("the check was stopped", location: first.location))
        case .unavailable(let reason):
            findings.diagnostics.append(.classesUnchecked(reason, location: first.location))
        }
        return findings
    }

    /// The errors in the user's files, each with its notes.
    package static func userErrors(_ all: [CompilerDiagnostic], in files: Set<String>) -> [CompilerDiagnostic] {
        errors(all.filter { files.contains($0.file) })
    }

    /// The errors of `all`, each with its notes (no warning).
    package static func errors(_ all: [CompilerDiagnostic]) -> [CompilerDiagnostic] {
        var kept: [CompilerDiagnostic] = []
        var keepNotes = false
        for diagnostic in all {
            if diagnostic.severity == "error" {
                keepNotes = true
                kept.append(diagnostic)
            } else if diagnostic.severity == "note" {
                if keepNotes { kept.append(diagnostic) }
            } else {
                keepNotes = false
            }
        }
        return kept
    }
}

extension SwiftBuild {
    /// A builder for the user's code: the compiler `SwiftCompiler.find`
    /// finds, its version asked, the cache under the XDG cache folder.
    package static func forUserCode(environment: [String: String]) -> Result<SwiftBuild, SwiftBuildUnavailable> {
        let compiler: SwiftCompiler
        switch SwiftCompiler.find(environment: environment) {
        case .success(let found): compiler = found
        case .failure(let notFound): return .failure(SwiftBuildUnavailable(description: notFound.description))
        }
        guard let root = cacheRoot(environment: environment) else {
            return .failure(
                SwiftBuildUnavailable(description: "no cache folder to build in: set HOME or XDG_CACHE_HOME"))
        }
        let version: String
        do {
            version = try compiler.version()
        } catch {
            // `Unusable` says which compiler and what it said.
            return .failure(SwiftBuildUnavailable(description: "\(error)"))
        }
        return .success(SwiftBuild(compiler: compiler, compilerVersion: version, cacheRoot: root))
    }
}

/// No compiler could be used for the user's code: a sentence saying why.
package struct SwiftBuildUnavailable: Error, CustomStringConvertible {
    package var description: String
}
