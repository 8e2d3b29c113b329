import Foundation
import ScenarioKit

/// Reads a scenario file from disk and runs it through the language.
package enum ScenarioLoading {
    /// The bytes of `path`, or a usage error naming the path; `kind` is
    /// what a directory there is said not to be.
    package static func source(at path: String, kind: String = "a scenario file") throws(UsageError) -> SourceFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UsageError("no such file '\(path)'")
        }
        guard !isDirectory.boolValue else {
            throw UsageError("'\(path)' is a directory, not \(kind)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read '\(path)'")
        }
        return SourceFile(path: path, bytes: Array(data))
    }

    /// Reads `file`, writes its diagnostics to standard error (coloured on a
    /// terminal), and returns the result. `terminalColumns`: the width of
    /// the terminal standard error is on, nil when it is not one.
    package static func read(
        _ file: SourceFile, terminalColumns: Int?, ownCode: ScenarioReader.OwnCode = .refused
    ) -> ParseResult {
        let result = ScenarioReader.read(file, ownCode: ownCode)
        report(result, file: file, terminalColumns: terminalColumns)
        return result
    }

    /// Writes `result`'s diagnostics, if any, to standard error. A source
    /// line wider than `terminalColumns` is shown around its caret.
    package static func report(_ result: ParseResult, file: SourceFile, terminalColumns: Int?) {
        guard !result.diagnostics.isEmpty else { return }
        let printer = DiagnosticPrinter(width: terminalColumns ?? DiagnosticPrinter.widthWithoutTerminal)
        StandardError.write(printer.renderAll(result, file: file, color: wantsColor(fileDescriptor: 2)))
    }
}
