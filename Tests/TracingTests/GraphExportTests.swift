import EventFixtures
import Foundation
import RunEvents
import ScenarioKit
import Testing
import Tracing

/// `trace --format dot|mermaid` from hand-made runs: nodes grouped by
/// queue, an edge from each dependency to what depends on it (dashed when
/// the dependency was cancelled), the barrier rule's waits (dashed and
/// labelled `barrier`), each node's end and times, and names
/// that need quoting kept whole. Graphviz itself reads every library
/// file's export in `.ci/run` and in `GraphExportCommandTests`.
@Suite struct GraphExportTests {
    static let logout = ScenarioReader.read(
        """
        title "Logout \\"now\\""
        queue auth serial
        queue api max 2
        op refresh on auth async 500ms
        op profile on api work 100ms after refresh
        barrier flush on api work 10ms
        op late on api work 10ms after flush

        """, path: "logout.ops"
    ).scenario!

    /// refresh cancelled while it runs, profile released and finished,
    /// flush finished, late never started: the run stalls there.
    static func export(_ dialect: GraphExport.Dialect, end: RunOutcome? = .completed) -> String {
        var s = Script(logout)
        for name in ["refresh", "profile", "flush", "late"] { s.add(name, ready: name == "refresh") }
        s.start("refresh", thread: 1)
        s.at(0.3)
        s.cancel("refresh")
        s.finish("refresh")
        s.ready("profile")
        s.start("profile", thread: 2)
        s.at(0.4)
        s.finish("profile")
        s.ready("flush")
        s.run("flush", from: 0.4, to: 0.41)
        if let end { s.end(end) }
        var graph = GraphExport(dialect, scenario: logout)
        graph.read(s.events)
        return graph.render(interrupted: end == nil)
    }

    @Test func dotGroupsByQueueAndDrawsEachDependencyFromTheOneWaitedFor() {
        let text = Self.export(.dot)
        #expect(text.contains(#"label="Logout \"now\" — run completed at 0.410s""#), "\(text)")
        #expect(text.contains(#"subgraph "cluster_0" {"# + "\n" + #"    label="auth (serial)""#))
        #expect(text.contains(#"label="api (cap 2)""#))
        #expect(text.contains(#"  "refresh" -> "profile" [style=dashed];"#), "a cancelled dependency: \(text)")
        #expect(text.contains(#"  "flush" -> "late";"#))
        #expect(
            text.contains(
                ##""refresh" [label="refresh\ncancelled 0.000→0.300s", fillcolor="#ffe0b2", opscope_state="cancelled""##
            ),
            "\(text)")
        #expect(text.contains(##"opscope_started="0.300", opscope_finished="0.400", opscope_thread="#2""##), "\(text)")
        #expect(
            text.contains(#""flush" [label="flush\nbarrier on api\nfinished 0.400→0.410s""#)
                && text.contains("shape=hexagon"),
            "\(text)")
        // The barrier waits for profile, added to api before it: dashed and
        // labelled; late's wait for it is its `after` clause, drawn once.
        #expect(text.contains(#"  "profile" -> "flush" [style=dashed, label="barrier", fontsize=9];"#), "\(text)")
        #expect(!text.contains(#""flush" -> "late" [style=dashed"#), "\(text)")
        #expect(text.contains(##""late" [label="late\nnever started", fillcolor="#ffffff""##), "\(text)")
        #expect(text.hasSuffix("}\n"))
    }

    @Test func mermaidUsesPlainIdsAndQuotedLabels() {
        let text = Self.export(.mermaid)
        #expect(text.hasPrefix("---\ntitle: \"Logout \\\"now\\\" — run completed at 0.410s\"\n---\nflowchart LR\n"))
        #expect(text.contains("  subgraph q1[\"api (cap 2)\"]\n"))
        #expect(text.contains("    o0[\"refresh<br/>cancelled 0.000→0.300s\"]:::cancelled\n"), "\(text)")
        #expect(
            text.contains("    o2{{\"flush<br/>barrier on api<br/>finished 0.400→0.410s\"}}:::finished\n"), "\(text)")
        #expect(text.contains("  o1 -. barrier .-> o2\n") && !text.contains("  o2 -. barrier .-> o3\n"), "\(text)")
        #expect(text.contains("  o0 -.-> o1\n") && text.contains("  o2 --> o3\n"), "\(text)")
        // Every line is one of the statements the export writes.
        let statement =
            /^(---|title: ".*"|flowchart LR|  subgraph q\d+\[".*"\]|    o\d+(\[".*"\]|\{\{".*"\}\}):::[a-z-]+|  end|  o\d+ (-->|-\.->|-\. barrier \.->) o\d+|  classDef [a-z-]+ fill:#[0-9a-f]{6},stroke:#555555,color:#000000)$/
        for line in text.split(separator: "\n") {
            #expect(String(line).wholeMatch(of: statement) != nil, "\(line)")
        }
    }

    @Test func aRunStoppedBeforeItsEndSaysSoAndKeepsWhatItReached() {
        let text = Self.export(.dot, end: nil)
        #expect(text.contains("run stopped at 0.410s"), "\(text)")
        #expect(text.contains(#""late" [label="late\nnot started""#), "\(text)")
    }

    @Test func namesThatNeedQuotingStayWhole() {
        var graph = GraphExport(.mermaid, scenario: Self.logout)
        #expect(graph.mermaid("a#b\"c") == "\"a#35;b#quot;c\"")
        graph.read([])
        let dot = GraphExport(.dot, scenario: Self.logout)
        #expect(dot.dot("a\"b\\c\nd") == #""a\"b\\c\nd""#)
    }

    /// An operation started by hand is in no queue: it is drawn in a group
    /// of its own, after the queues', and its dependencies' edges stay.
    @Test func anOperationStartedByHandIsInAGroupOfItsOwn() {
        var dot = GraphExport(.dot, scenario: StartByHandFixture.scenario)
        dot.read(StartByHandFixture.events)
        let text = dot.render()
        let net = text.range(of: #"label="net (cap default)""#)
        let byHand = text.range(of: #"label="by hand (in no queue)""#)
        let fetch = text.range(of: #""fetch" [label="fetch\nfinished"#)
        #expect(net != nil && byHand != nil && fetch != nil, "\(text)")
        if let net, let byHand, let fetch {
            #expect(net.lowerBound < byHand.lowerBound && byHand.lowerBound < fetch.lowerBound)
        }
        #expect(text.contains(#""token" -> "fetch";"#) && text.contains(#""fetch" -> "parse";"#))
        var mermaid = GraphExport(.mermaid, scenario: StartByHandFixture.scenario)
        mermaid.read(StartByHandFixture.events)
        #expect(mermaid.render().contains(#"subgraph q1["by hand (in no queue)"]"#))
    }
}
