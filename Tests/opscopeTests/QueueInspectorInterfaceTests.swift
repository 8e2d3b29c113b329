import Foundation
import Testing

/// The queue inspector in the real interface: select a queue line, read
/// who suspended it and what resumes it.
@Suite("the queue inspector in tmux")
struct QueueInspectorInterfaceTests {
    @Test("23: Tab to the downloads line; the inspector says line 16 suspended it and the resume at 1.6s is to come")
    func theQueueInspectorTellsWhoSuspendedIt() throws {
        // Slow, so that the resume at 1.6s (12.8 s of real time) stays to come.
        let tmux = try TmuxSession(["scenarios/23-suspend-resume.ops", "--speed", "0.125"], columns: 80, rows: 24)
        try tmux.waitFor(text: "SUSPENDED")
        // The first card is on downloads: Tab goes to clock, Tab again back.
        try tmux.send("Tab")
        try tmux.waitFor(text: "Inspector: queue clock")
        try tmux.send("Tab")
        let screen = try tmux.waitFor("the inspector of downloads") {
            $0.contains("Inspector: queue downloads") && $0.contains("still to come at 1.600s (line 17)")
        }
        #expect(screen.contains("by line 16"), "\(screen)")
        #expect(screen.contains("suspended since 0.3"), "\(screen)")
        try tmux.send("Down")
        try tmux.waitFor("the inspector back on a card") { !$0.contains("Inspector: queue") }
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }
}
