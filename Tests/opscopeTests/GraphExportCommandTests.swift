import Foundation
import Testing

/// `trace --format dot|mermaid` in the real program: Graphviz's `dot`
/// draws the export, the missing-dependency bug is an edge from fetch3 to
/// thumb3, and a recording exports the same graph each time.
@Suite("graph exports, in the real program")
struct GraphExportCommandTests {
    static let bug = "Tests/opscopeTests/Fixtures/bugs/missing-dependency.ops"

    /// Graphviz's `dot`: `.ci/run` installs it, so under CI its absence is a failure.
    static func dot() throws -> URL? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        let found = path.map { URL(fileURLWithPath: String($0)).appendingPathComponent("dot") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        if found == nil, ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("Graphviz's dot is missing under CI: .ci/run installs the Debian package graphviz")
        }
        return found
    }

    @Test func dotDrawsTheExportAndTheWrongEdgeIsThere() throws {
        let result = try OpscopeBinary.run(["trace", "--speed", "4", "--format", "dot", Self.bug])
        #expect(result.status == 1, "two expectations fail: \(result.stderr)")
        #expect(result.stdout.contains("\n  \"fetch3\" -> \"thumb3\";\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("\"decode3\" -> \"thumb3\""))
        #expect(result.stderr.contains("✗ expect thumb3 depends on decode3"), "the report goes to standard error")
        guard let svg = try Self.drawn(result.stdout) else { return }
        #expect(svg.contains("<svg") && svg.contains("thumb3"))
    }

    /// The export drawn by Graphviz, which must say nothing on standard
    /// error; nil when `dot` is not installed (outside CI).
    static func drawn(_ export: String) throws -> String? {
        guard let dot = try Self.dot() else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-\(UUID()).dot")
        try Data(export.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = dot
        process.arguments = ["-Tsvg", file.path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let svg = out.fileHandleForReading.readDataToEndOfFile()
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
        return String(decoding: svg, as: UTF8.self)
    }

    /// 07-barrier: flush waits for write1 and write2, read1 and read2 for
    /// flush, by the barrier rule of disk: dashed edges labelled `barrier`
    /// in dot (which Graphviz draws without a warning) and in mermaid.
    @Test func theBarrierLessonsGraphHasItsBarrierEdges() throws {
        let file = "scenarios/07-barrier.ops"
        let dot = try OpscopeBinary.run(["trace", "--speed", "16", "--format", "dot", file])
        #expect(dot.status == 0, "\(dot.stderr)")
        for (from, to) in [("write1", "flush"), ("write2", "flush"), ("flush", "read1"), ("flush", "read2")] {
            #expect(
                dot.stdout.contains("\n  \"\(from)\" -> \"\(to)\" [style=dashed, label=\"barrier\", fontsize=9];\n"),
                "\(dot.stdout)")
        }
        #expect(dot.stdout.contains(#""flush" [label="flush\nbarrier on disk\n"#), "\(dot.stdout)")
        if let svg = try Self.drawn(dot.stdout) { #expect(svg.contains("<svg") && svg.contains(">barrier<")) }
        let mermaid = try OpscopeBinary.run(["trace", "--speed", "16", "--format", "mermaid", file])
        #expect(mermaid.status == 0)
        // write1, write2, flush, read1, read2 are o0…o4.
        for edge in ["o0 -. barrier .-> o2", "o1 -. barrier .-> o2", "o2 -. barrier .-> o3", "o2 -. barrier .-> o4"] {
            #expect(mermaid.stdout.contains("\n  \(edge)\n"), "\(mermaid.stdout)")
        }
        #expect(mermaid.stdout.contains("{{\"flush<br/>barrier on disk<br/>"), "\(mermaid.stdout)")
    }

    @Test func aRecordingExportsTheSameGraphEachTime() throws {
        let recording = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: recording) }
        #expect(FileManager.default.createFile(atPath: recording.path, contents: nil))
        let made = try OpscopeBinary.run(
            ["trace", "--speed", "4", "--format", "jsonl", Self.bug], outputTo: recording.path)
        #expect(made.status == 1)
        let first = try OpscopeBinary.run(["trace", "--format", "mermaid", recording.path])
        let second = try OpscopeBinary.run(["trace", "--format", "mermaid", recording.path])
        #expect(first.status == 1 && first.stdout == second.stdout)
        // fetch1…4 are o0…o3, decode o4…o7, thumb o8…o11: thumb3 (o10) after fetch3 (o2).
        #expect(first.stdout.contains("\n  o2 --> o10\n"), "\(first.stdout)")
        #expect(first.stdout.hasPrefix("---\ntitle: \"Photo import: fetch, decode, thumbnail — run completed at "))
    }

    @Test func theFormatIsNamedInTheUsageError() throws {
        let result = try OpscopeBinary.run(["trace", "--format", "graphviz", Self.bug])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'--format' is 'text', 'jsonl', 'chrome', 'timeline', 'dot' or 'mermaid'"))
    }
}
