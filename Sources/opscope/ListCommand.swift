import CommandSupport
import Foundation
import ScenarioKit
import TextKit

/// `opscope list [DIR]`: the scenario library, one line per file.
enum ListCommand: Subcommand {
    static let spec = CommandSpec(
        name: "list", abstract: "List the scenario library: number, title and first note of each file",
        usage: [["list", "[DIR]"]],
        about: """
            Lists the scenario files (*.ops) of DIR (default: scenarios), one line
            per file in name order:

                NN  TITLE — FIRST NOTE

            NN is the number the file name starts with. A file with errors says so
            (run 'opscope check FILE' for the details). Each subfolder, such as
            scenarios/mistakes, is listed after the files, under its own heading.
            """,
        epilogue: """
            EXIT STATUS: 0 when the folder was listed (even with files in error);
            2 when the folder does not exist or the command line is wrong.
            """)

    static let defaultDirectory = "scenarios"

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        guard args.positionals.count <= 1 else {
            throw UsageError("'list' takes one folder, not \(args.positionals.count)")
        }
        let directory = args.positionals.first ?? defaultDirectory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw UsageError("no such folder '\(directory)'")
        }
        guard isDirectory.boolValue else {
            throw UsageError("'\(directory)' is a file, not a folder of scenarios")
        }
        let lines = listing(of: directory)
        let text = lines.isEmpty ? "no scenario files in '\(directory)'\n" : lines.joined(separator: "\n") + "\n"
        StandardOutput.write(text)
        return .success
    }

    /// The lines for `directory`: its files, then each subfolder (in name
    /// order, recursively) under a blank line and a `NAME/` heading.
    /// Subfolders without scenario files are left out.
    static func listing(of directory: String, heading: String? = nil) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.sorted() ?? []
        var files: [String] = []
        var folders: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                folders.append(name)
            } else if name.hasSuffix(".ops") {
                files.append(name)
            }
        }
        var lines: [String] = []
        if !files.isEmpty {
            if let heading { lines += ["", heading + "/"] }
            let width = max(2, files.map { number(of: $0).count }.max() ?? 0)
            for file in files {
                lines.append(line(for: file, in: directory, numberWidth: width))
            }
        }
        for folder in folders {
            let path = (directory as NSString).appendingPathComponent(folder)
            lines += listing(of: path, heading: heading.map { $0 + "/" + folder } ?? folder)
        }
        return lines
    }

    /// The digits a file name starts with (`01-chain.ops` → `01`), or "".
    static func number(of file: String) -> String {
        String(file.prefix { $0.isASCII && $0.isNumber })
    }

    /// `01  Title — first note`; a file without title shows its name; a
    /// file with errors (or unreadable) says so instead.
    static func line(for file: String, in directory: String, numberWidth: Int) -> String {
        let number = number(of: file)
        let prefix = number.padding(toLength: numberWidth, withPad: " ", startingAt: 0) + "  "
        let path = (directory as NSString).appendingPathComponent(file)
        guard let data = FileManager.default.contents(atPath: path) else {
            return prefix + "\(file): cannot be read"
        }
        let result = ScenarioReader.read(SourceFile(path: path, bytes: Array(data)), ownCode: .accepted)
        guard let scenario = result.scenario else {
            return prefix
                + "\(TerminalText.escaped(file)): \(CheckCommand.count(result.errorCount, "error")) "
                + "(opscope check \(TerminalText.escaped(path)))"
        }
        let title = scenario.title ?? file
        guard let note = scenario.notes.first, !note.isEmpty else { return prefix + title }
        return prefix + title + " — " + note
    }
}
