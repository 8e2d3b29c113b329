/// What a key means in opscope's interface. The loop never sees these:
/// `InterfaceController` turns them into state changes and an
/// `InterfaceOutcome`. Mouse clicks and resizes are not commands (they carry
/// data); the controller handles them before the table is asked.
public enum InterfaceCommand: Sendable, Hashable, CaseIterable {
    // Selection
    case selectUp, selectDown, selectLeft, selectRight
    case nextQueue, previousQueue
    case toggleInspector
    // Operation (the selected card)
    case cancelOperation
    case raisePriority, lowerPriority
    // Queue (the selected queue)
    case cancelAllOnQueue
    case toggleSuspend
    case raiseCap, lowerCap, defaultCap
    // Run
    case togglePause, slower, faster, restart, toggleLesson, saveRecording, compareRuns
    // History
    case historyBack, historyForward, historyPreviousChange, historyNextChange, goToTime
    case historyPreviousMark, historyNextMark
    // Search and filter
    case search, nextMatch, previousMatch, filterOperations
    // Timeline
    case cycleBoardArea, zoomIn, zoomOut, scrollEarlier, scrollLater, fitTimeline
    // Table
    case sortTable, reverseTable
    // View
    case toggleLog, logOlder, logNewer, scrollHome, scrollEnd, filterLog
    case toggleNotes, notesUp, notesDown, toggleSwift, explainStall, toggleHelp, closeOverlay
    case toggleGraph
    // Graph
    case foldGraph, markCriticalPath, askWaitsFor
    case quit
}

/// opscope's one key table: `InterfaceController` asks it what a key means,
/// the help overlay lists it and the key bar labels come from it, so the
/// three cannot disagree.
///
/// `l` moves right (h/j/k/l stay a complete set), so the log is `L`.
public enum InterfaceKeys {
    public static let table = KeyTable<InterfaceCommand>([
        KeyBinding([.up, .character("k")], .selectUp, help: "select the card above", group: "Selection"),
        KeyBinding([.down, .character("j")], .selectDown, help: "select the card below", group: "Selection"),
        KeyBinding(
            [.left, .character("h")], .selectLeft, help: "select in the column to the left",
            group: "Selection"),
        KeyBinding(
            [.right, .character("l")], .selectRight, help: "select in the column to the right",
            group: "Selection"),
        KeyBinding(
            [.tab], .nextQueue, help: "select the next queue; the inspector shows it (a click on its line too)",
            group: "Selection"),
        KeyBinding(
            [.shiftTab], .previousQueue, help: "select the previous queue; arrows: back to the card",
            group: "Selection"),
        KeyBinding([.enter], .toggleInspector, help: "expand or shrink the inspector", group: "Selection"),

        KeyBinding([.character("c")], .cancelOperation, help: "cancel the selected operation", group: "Operation"),
        KeyBinding([.character("p")], .raisePriority, help: "raise its queuePriority", group: "Operation"),
        KeyBinding([.character("P")], .lowerPriority, help: "lower its queuePriority", group: "Operation"),

        KeyBinding(
            [.character("C")], .cancelAllOnQueue, help: "cancelAllOperations on the selected queue",
            group: "Queue"),
        KeyBinding([.character("s")], .toggleSuspend, help: "suspend or resume the queue", group: "Queue"),
        KeyBinding([.character("+"), .character("=")], .raiseCap, help: "raise its cap by one", group: "Queue"),
        KeyBinding(
            [.character("-")], .lowerCap, help: "lower its cap by one (from default: to what runs now)",
            group: "Queue"),
        KeyBinding([.character("0")], .defaultCap, help: "set its cap back to default", group: "Queue"),

        KeyBinding(
            [.character(" ")], .togglePause, help: "start the run, or pause or resume scenario time", group: "Run"),
        KeyBinding([.character("<")], .slower, help: "halve the speed", group: "Run"),
        KeyBinding([.character(">")], .faster, help: "double the speed", group: "Run"),
        KeyBinding([.character("r")], .restart, help: "restart the scenario with new operations", group: "Run"),
        KeyBinding(
            [.character("m")], .toggleLesson, help: "lesson mode on or off: pause at each caption", group: "Run"),
        KeyBinding(
            [.character("W")], .saveRecording, help: "save the run as a recording (opscope replay opens it)",
            group: "Run"),
        KeyBinding(
            [.character("d")], .compareRuns, help: "compare this run with the one before it (after r or a reload)",
            group: "Run"),

        KeyBinding(
            [.character("[")], .historyBack, help: "one notification back in the run's history", group: "History"),
        KeyBinding(
            [.character("]")], .historyForward, help: "one notification forward (past the last: live)", group: "History"
        ),
        KeyBinding(
            [.character("{")], .historyPreviousChange, help: "back to the last moment a card changed column",
            group: "History"),
        KeyBinding(
            [.character("}")], .historyNextChange, help: "forward to the next moment a card changed column",
            group: "History"),
        KeyBinding(
            [.character("g")], .goToTime, help: "go to a time: type it (0.6, 600ms), then Enter",
            group: "History"),
        KeyBinding(
            [.character("A")], .historyPreviousMark, help: "back to the last action or caption", group: "History"),
        KeyBinding(
            [.character("a")], .historyNextMark, help: "forward to the next action or caption", group: "History"),

        KeyBinding(
            [.character("/")], .search, help: "search the names: type, Enter keeps the match, Esc gives up",
            group: "Search"),
        KeyBinding([.ctrl("n")], .nextMatch, help: "the next match of the last search", group: "Search"),
        KeyBinding([.ctrl("p")], .previousMatch, help: "the previous match of the last search", group: "Search"),
        KeyBinding(
            [.character("F")], .filterOperations,
            help: "filter: queue:NAME state:COLUMN text:WORD (Enter; F Enter: off)", group: "Search"),

        KeyBinding(
            [.character("t")], .cycleBoardArea, help: "the board, the timeline, the threads, the table in turn",
            group: "Timeline"),
        KeyBinding([.character("z")], .zoomIn, help: "zoom in (×2) around the cursor", group: "Timeline"),
        KeyBinding([.character("Z")], .zoomOut, help: "zoom out (×2)", group: "Timeline"),
        KeyBinding(
            [.character(",")], .scrollEarlier, help: "earlier in time (← and h too, over the timeline)",
            group: "Timeline"),
        KeyBinding(
            [.character(".")], .scrollLater, help: "later in time (→ and l too, over the timeline)", group: "Timeline"),
        KeyBinding(
            [.character("x")], .fitTimeline, help: "the whole run again, following it as it grows", group: "Timeline"),

        KeyBinding(
            [.character("o")], .sortTable, help: "table: sort by the next column shown (← → too), then file order",
            group: "Table"),
        KeyBinding([.character("O")], .reverseTable, help: "table: reverse the order", group: "Table"),

        KeyBinding([.character("L")], .toggleLog, help: "show or hide the log", group: "View"),
        KeyBinding(
            [.character("f")], .filterLog, help: "log only the selected operation's lines, or all again",
            group: "View"),
        KeyBinding(
            [.pageUp], .logOlder, help: "scroll the log (or the open pane, H's band) back; graph: a screen up",
            group: "View"),
        KeyBinding(
            [.pageDown], .logNewer, help: "scroll the log (or the open pane, H's band) forward; graph: a screen down",
            group: "View"),
        KeyBinding(
            [.home], .scrollHome,
            help: "the log's (or the open pane's, H's band's) first line; graph: its first; in history: the start",
            group: "View"),
        KeyBinding(
            [.end], .scrollEnd,
            help: "the log's (or the open pane's, H's band's) last line; graph: its last; in history: back to live",
            group: "View"),
        KeyBinding(
            [.character("n")], .toggleNotes, help: "show or hide the notes and expectations", group: "View"),
        KeyBinding([.character("(")], .notesUp, help: "scroll the notes and expectations up", group: "View"),
        KeyBinding([.character(")")], .notesDown, help: "scroll the notes and expectations down", group: "View"),
        KeyBinding(
            [.character("w")], .toggleSwift, help: "show or hide the Swift code of this scenario", group: "View"),
        KeyBinding(
            [.character("y")], .explainStall,
            help: "why the run is stuck: its root causes, then each stuck operation", group: "View"),
        KeyBinding(
            [.character("G")], .toggleGraph,
            help: "the dependency graph in place of the board: what the selected one waits for and what waits for it",
            group: "View"),
        KeyBinding(
            [.character("e")], .foldGraph,
            help: "graph: fold what waits for the selected one alone into its node, or unfold it", group: "Graph"),
        KeyBinding(
            [.character("H")], .markCriticalPath,
            help:
                "what held the selected one back: what cost most, then its critical path on the graph, each link's cost",
            group: "Graph"),
        KeyBinding(
            [.character("D")], .askWaitsFor,
            help: "does the selected one wait for another? type its name; the inspector answers with the path",
            group: "Graph"),
        KeyBinding([.character("?"), .function(1)], .toggleHelp, help: "show or hide this help", group: "View"),
        KeyBinding([.escape], .closeOverlay, help: "close the overlay", group: "View"),
        KeyBinding(
            [.character("q"), .ctrl("c")], .quit, help: "quit (in a lesson q asks first; Ctrl-C leaves at once)",
            group: "View"),
    ])

    /// The first key of `command`'s binding, as the key bar shows it.
    static func firstKeyLabel(_ command: InterfaceCommand, glyphs: GlyphSet) -> String {
        guard let binding = table.bindings.first(where: { $0.command == command }),
            let key = binding.keys.first
        else { return "" }
        return key.label(ascii: glyphs.isASCII)
    }
}
