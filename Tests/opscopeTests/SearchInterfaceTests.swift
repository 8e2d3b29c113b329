import Foundation
import Testing

/// Search and filter in the real interface, on the 266-operation feed.
@Suite("search and filter in tmux")
struct SearchInterfaceTests {
    @Test("266 operations: /thumb40 selects thumb40; F queue:net hides the 199 on other queues")
    func searchSelectsAndTheFilterSaysWhatItHides() throws {
        let tmux = try TmuxSession(["Tests/opscopeTests/Fixtures/bugs/one-stuck-in-266.ops"], columns: 80, rows: 24)
        try tmux.waitFor(text: "Inspector: session")
        try tmux.send("/")
        try tmux.sendKeys(["-l", "thumb40"])
        var screen = try tmux.waitFor(text: "Inspector: thumb40")
        #expect(screen.contains("/thumb40_"), "\(screen)")
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "thumb40: match 1 of 1")
        try tmux.send("F")
        try tmux.sendKeys(["-l", "queue:net"])
        try tmux.send("Enter")
        // The whole frame, not one caught while the terminal draws it.
        try tmux.waitFor("the filter's line, thumb40's inspector gone") {
            $0.contains("filter hides 199: queue:net") && !$0.contains("Inspector: thumb40")
        }
        // The threads view, filtered too; the search finds only what shows.
        try tmux.send("/")
        try tmux.sendKeys(["-l", "fetch41"])
        try tmux.waitFor(text: "Inspector: fetch41")
        try tmux.send("Enter")
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }
}
