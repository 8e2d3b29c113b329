import Foundation
import Testing

/// The graph view in the real interface: `G` on the missing-dependency
/// bug shows thumb3 one layer early, beside the decodes, with its edge
/// from fetch3; the arrows walk the graph; `t` goes back.
@Suite("the graph view in tmux")
struct GraphViewInterfaceTests {
    @Test("G at 80×24 and 200×60: the wrong edge stands out, the arrows follow the edges")
    func theGraphShowsTheMissingDependency() throws {
        for (columns, rows) in [(80, 24), (200, 60)] {
            let tmux = try TmuxSession(
                ["Tests/opscopeTests/Fixtures/bugs/missing-dependency.ops", "--speed", "4"], columns: columns,
                rows: rows)
            // It opens running (no --paused): a Space here would pause it.
            try tmux.waitFor(text: "ended")
            try tmux.send("G")
            let screen = try tmux.waitFor("the graph") { $0.contains("Graph · 3 layers") }
            let lines = screen.split(separator: "\n").map(String.init)
            // thumb3 sits in the decodes' column: its only edge comes from fetch3.
            let decode1 = try #require(lines.first { $0.contains("▸decode1") })
            let thumb3 = try #require(lines.first { $0.contains("▸thumb3") })
            let column = { (line: String, name: String) in
                line.range(of: name).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
            }
            #expect(column(thumb3, "thumb3") == column(decode1, "decode1"), "\(screen)")
            #expect(lines.contains { $0.contains("▸decode3") && $0.contains("fetch3") }, "\(screen)")
            try tmux.send("Right")
            try tmux.waitFor("the selection moved along an edge") {
                $0.contains("Inspector: decode") || $0.contains("Inspector: thumb")
            }
            // H: thumb3's critical path runs through fetch3 alone, and its links add up to its start.
            try tmux.send("/")
            try tmux.send("-l", "thumb3")
            try tmux.send("Enter")
            try tmux.send("H")
            try tmux.waitFor("the critical path's sentence") { $0.contains("thumb3 started at ") }
            // The total is the band's last line: End scrolls to it.
            try tmux.send("End")
            let held = try tmux.waitFor("the critical path") { $0.contains("the links add up to") }
            // Through fetch3, or through the decode whose thread it waited for: the run decides.
            #expect(held.contains("▶thumb3"), "\(held)")
            let total = try #require(held.split(separator: "\n").first { $0.contains("the links add up to") })
            // "the links add up to S[ after A]: T, when it started", with S + A = T.
            let match = try #require(
                total.firstMatch(of: #/add up to ([0-9.]+)s(?: after ([0-9.]+)s)?: ([0-9.]+)s, when it started/#))
            let sum = try #require(Double(match.output.1))
            let after = match.output.2.flatMap { Double($0) } ?? 0
            let started = try #require(Double(match.output.3))
            #expect(abs(sum + after - started) < 0.0015, "\(total)")
            // e folds what waits for fetch1 into it.
            try tmux.send("/")
            try tmux.send("-l", "fetch1")
            try tmux.send("Enter")
            try tmux.send("e")
            try tmux.waitFor("fetch1 folded") { $0.contains("fetch1 +2") && $0.contains("1 folded") }
            try tmux.send("t")
            try tmux.waitFor("the board again") { $0.contains("Pending") && !$0.contains("Graph · ") }
            try tmux.send("q")
            try tmux.waitFor(text: "[terminal restored]")
        }
    }

    @Test("G on 07-barrier: the barrier's waits are dashed edges, the title names the rule's queue, H agrees")
    func theBarrierLessonsGraphHasItsBarrierEdges() throws {
        let tmux = try TmuxSession(["scenarios/07-barrier.ops", "--speed", "4"], columns: 120, rows: 30)
        try tmux.waitFor(text: "ended")
        try tmux.send("G")
        let screen = try tmux.waitFor("the graph") { $0.contains("Graph · 3 layers · ╌▹ barrier rule of disk") }
        let lines = screen.split(separator: "\n").map(String.init)
        // write1 and write2 into flush, flush into read1 and read2: all dashed.
        #expect(lines.contains { $0.contains("write") && $0.contains("╌") && $0.contains("▹flush") }, "\(screen)")
        #expect(lines.filter { $0.contains("▹read") }.count == 2, "\(screen)")
        #expect(!screen.contains("▸"), "no edge here is an after clause: \(screen)")
        // H on read1: its link names flush, which the graph draws into it.
        try tmux.send("/")
        try tmux.send("-l", "read1")
        try tmux.send("Enter")
        try tmux.send("H")
        try tmux.waitFor("the critical path's sentence") { $0.contains("read1 started at ") }
        try tmux.send("End")
        let held = try tmux.waitFor("the critical path") { $0.contains("the links add up to") }
        #expect(
            held.contains("▶flush") && held.contains("read1 turned ready when flush, which the barrier rule"), "\(held)"
        )
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("H at 80×24 opens with its sentence and scrolls to the chain's last link")
    func theCriticalPathBandOpensWithItsSentenceAndScrolls() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chain-\(UUID()).ops").path
        var text = "title \"a chain of 30\"\nqueue q serial\n"
        for i in 0..<30 { text += "op s\(i) work 5ms" + (i > 0 ? " after s\(i - 1)" : "") + "\n" }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let tmux = try TmuxSession([file, "--speed", "4"], columns: 80, rows: 24)
        try tmux.waitFor(text: "ended")
        try tmux.send("/")
        try tmux.send("-l", "s29")
        try tmux.send("Enter")
        try tmux.send("H")
        let opened = try tmux.waitFor("the band's sentence") { $0.contains("s29 started at ") }
        let lines = opened.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The sentence comes first, above the groups of links, and names what cost most.
        let sentence = try #require(lines.firstIndex { $0.contains("s29 started at ") })
        let group = try #require(lines.firstIndex { $0.contains("waiting ") && $0.contains(" link") })
        #expect(sentence < group, "\(opened)")
        #expect(lines[sentence].contains(": it "), "\(opened)")
        #expect(opened.contains("PgDn for more, End for the last link"), "\(opened)")
        #expect(!opened.contains("the links add up to"), "the band does not hold the whole chain: \(opened)")
        #expect(lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains("PgDn links") == true)
        // PgDn pages on, the sentence staying; End shows the last link and the total.
        try tmux.send("PageDown")
        try tmux.waitFor("a page on") { $0.contains("s29 started at ") && !$0.contains("lines 1–") }
        try tmux.send("End")
        let end = try tmux.waitFor("the last link") { $0.contains("the links add up to") }
        #expect(end.contains("s29 started at "), "\(end)")
        #expect(end.contains("s29 turned ready when its dependency s28 finished") || end.contains("s29"), "\(end)")
        #expect(end.contains("the last link: PgUp goes back"), "\(end)")
        try tmux.send("Home")
        try tmux.waitFor("back to the first link") { $0.contains("lines 1–") }
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("e on fetch7 gathers thumb7 alone: publish, which waits for every thumbnail, stays outside")
    func aFoldKeepsTheSharedPublishOutside() throws {
        let tmux = try TmuxSession(
            ["Tests/opscopeTests/Fixtures/feed-fold.ops", "--speed", "4"], columns: 120, rows: 40)
        try tmux.waitFor(text: "ended")
        try tmux.send("G")
        try tmux.waitFor("the graph") { $0.contains("Graph · 4 layers") }
        try tmux.send("/")
        try tmux.send("-l", "fetch7")
        try tmux.send("Enter")
        try tmux.send("e")
        let folded = try tmux.waitFor("fetch7 folded") { $0.contains("fetch7 +1") && $0.contains("1 folded") }
        #expect(folded.contains("fetch7: waits for 1, 1 wait for it"), "\(folded)")
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }
}
