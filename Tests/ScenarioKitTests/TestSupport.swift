import Testing

@testable import ScenarioKit

/// Reads `text` as a scenario file named `test.ops`.
func read(_ text: String) -> ParseResult {
    ScenarioReader.read(SourceFile(path: "test.ops", text: text))
}

/// A diagnostic flattened for comparison: `"3:22 error: message | note | note"`.
func describe(_ d: Diagnostic) -> String {
    ([("\(d.location.line):\(d.location.column) \(d.severity.rawValue): \(d.message)")] + d.notes)
        .joined(separator: " | ")
}

func describeAll(_ result: ParseResult) -> [String] {
    result.diagnostics.map(describe)
}

/// The 1-based line and column (in Unicode scalars) of the first `^` marker
/// on the line below each line of `marked`, and the text without the
/// marker lines. Marker lines start with `//^` padding: the caret column
/// is the column of `^` in that line.
struct MarkedSource {
    var text: String
    var markers: [Loc]

    /// Lines that begin with `~` are marker lines: every `^` on them marks
    /// the column above on the previous source line. They are removed.
    init(_ marked: String) {
        var lines: [String] = []
        var markers: [Loc] = []
        for line in marked.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("~") {
                for (offset, scalar) in line.unicodeScalars.enumerated() where scalar == "^" {
                    markers.append(SourceLocation(line: lines.count, column: offset + 1))
                }
            } else {
                lines.append(String(line))
            }
        }
        self.text = lines.joined(separator: "\n")
        self.markers = markers
    }
}

/// A scenario that must read without any diagnostic.
func clean(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Scenario? {
    let result = read(text)
    #expect(result.diagnostics.map(describe) == [], sourceLocation: sourceLocation)
    #expect(result.scenario != nil, sourceLocation: sourceLocation)
    return result.scenario
}

/// ScenarioKit's location (Testing has a `SourceLocation` of its own).
typealias Loc = ScenarioKit.SourceLocation

func ms(_ n: Int64) -> Duration { .milliseconds(n) }
