import Foundation
import Testing

/// Each rule of `FoundationRules` is stated there once: no other source
/// file spells one of them out again. A restatement has tell-tale
/// spellings; this looks for them in every Swift file of `Sources` outside
/// the rules' own module (DECISIONS.md, "One home for Foundation's rules",
/// gives the same search as a command).
@Suite struct NoRuleRestatedTests {
    /// A spelling that restates a rule, and the rule to call instead.
    static let tells: [(pattern: String, rule: String)] = [
        (#"\.impliedPriority"#, "PriorityRule.filing or PriorityRule.looksIn (the bucket a QoS names)"),
        (
            #"\b(cap|n|value|foundationValue)\s*<\s*0\s*\?\s*(nil|Int\.max|\.systemDefault)"#,
            "CapRule.limit (a cap of -1 lets the system decide)"
        ),
        (#"isMain\s*\?\s*1\b"#, "CapRule.limit (the main queue runs one at a time)"),
        (
            #"qos.*(cap|limit)\w*\s*[!=]=\s*1\b|(cap|limit)\w*\s*[!=]=\s*1\b.*qos"#,
            "PriorityRule.filing (a serial queue ignores QoS)"
        ),
        (#"[!=]=\s*\.limit\(1\)"#, "QueueSpec.isSerial / CapRule.isSerial"),
        (#"schedulingRank|rawPriority\s*[<>]"#, "DispatchRule.precedes (the order a queue walks its buckets)"),
        (#"static func bucket\(of"#, "DispatchBucket (the lists a queue walks)"),
    ]

    /// The bench's bare baseline is plain Foundation on purpose: it sets
    /// a real queue's cap as the run does, with no opscope code.
    static let exempt = ["Sources/FoundationRules/", "Sources/opscope-bench/BareEngineBaseline.swift"]

    @Test func noSourceOutsideFoundationRulesRestatesARule() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.map { "Sources/" + $0 }
        #expect(files.count > 100, "the sources were not found")
        let tells = try Self.tells.map { (try Regex($0.pattern), $0.rule) }
        var found: [String] = []
        for path in files.sorted() where !Self.exempt.contains(where: path.hasPrefix) {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for (tell, rule) in tells where line.contains(tell) {
                    found.append("\(path):\(n + 1): restates \(rule): \(code)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func eachTellFindsTheRestatementItIsFor() throws {
        let restatements = [
            "let b = op.qos?.impliedPriority ?? .normal",
            "cap = n < 0 ? nil : n",
            "var effectiveCap: Int { isMain ? 1 : cap }",
            "let bucket = op.priority ?? (capAtAdd == 1 ? nil : op.qos) ?? .normal",
            "if queue.cap == .limit(1) { return true }",
            "if a.schedulingRank > b.schedulingRank {",
            "static func bucket(of level: PriorityLevel) -> Int {",
        ]
        for (tell, example) in zip(Self.tells, restatements) {
            #expect(example.contains(try Regex(tell.pattern)), "\(tell.pattern) misses \(example)")
        }
    }
}
