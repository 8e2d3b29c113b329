import CNCurses
import Foundation
import ScenarioKit

/// Reads a scenario file from disk and runs it through the language.
package enum ScenarioLoading {
    /// The bytes of `path`, or a usage error naming the path.
    package static func source(at path: String) throws(UsageError) -> SourceFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw UsageError("no such file '\(path)'")
        }
        guard !isDirectory.boolValue else {
            throw UsageError("'\(path)' is a directory, not a scenario file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read '\(path)'")
        }
        return SourceFile(path: path, bytes: Array(data))
    }

    /// Reads `file`, writes its diagnostics to standard error (coloured on a
    /// terminal), and returns the result.
    package static func read(_ file: SourceFile) -> ParseResult {
        let result = ScenarioReader.read(file)
        report(result, file: file)
        return result
    }

    /// Writes `result`'s diagnostics, if any, to standard error.
    package static func report(_ result: ParseResult, file: SourceFile) {
        if !result.diagnostics.isEmpty {
            // A source line wider than the terminal is shown around its caret.
            var rows: Int32 = 0
            var columns: Int32 = 0
            let onTerminal = opscope_terminal_size(2, &rows, &columns) == 0
            let printer = DiagnosticPrinter(
                width: onTerminal ? Int(columns) : DiagnosticPrinter.widthWithoutTerminal)
            let text = printer.renderAll(result, file: file, color: wantsColor(fileDescriptor: 2))
            StandardError.write(text)
        }
    }
}
