import Foundation
import Testing

/// The process ends in one place (`Opscope.exit`, private to the entry
/// point, which `main` and `Opscope.endWithoutMainThread` reach): no other code of the
/// program calls `exit`, and the only `_exit`s are `CursesBackend`'s
/// escapes that must not run atexit handlers (DECISIONS.md, "Exit only in
/// main").
@Suite("exit only in main")
struct OneExitTests {
    @Test("no Sources file but Opscope.swift calls exit; _exit only in the signal watch and the blocked line")
    func oneExit() throws {
        let allowed: [String: String] = [
            "Sources/opscope/Opscope.swift": "exit(",
            "Sources/CursesBackend/SignalWatch.swift": "_exit(",
            "Sources/CursesBackend/BlockedMainThreadLine.swift": "_exit(",
        ]
        let files = try #require(FileManager.default.enumerator(atPath: "Sources")).compactMap { $0 as? String }
        var found: [String] = []
        for file in files where file.hasSuffix(".swift") {
            let path = "Sources/" + file
            // The benchmark is an executable of its own; the program
            // printers (Swift and GCD) write `exit(…)` into the user's
            // program, as text.
            if path.hasPrefix("Sources/opscope-bench/") || path.contains("ProgramPrinter") { continue }
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for call in ["exit(", "_exit("] where Self.calls(call, in: line) {
                    if allowed[path] == call { continue }
                    found.append("\(path): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Whether `line` calls `name` itself (not `something.name`, not a
    /// longer name ending in it, not its declaration).
    static func calls(_ name: String, in line: Substring) -> Bool {
        var rest = line
        while let range = rest.range(of: name) {
            let before = rest[..<range.lowerBound].last
            let declared = rest[..<range.lowerBound].hasSuffix("func ")
            if !declared, before.map({ !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) ?? true {
                return true
            }
            rest = rest[range.upperBound...]
        }
        return false
    }
}
