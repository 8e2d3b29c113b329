import Foundation
import Katas
import Testing

/// The interactive view, end to end: the real binary in a real terminal
/// (tmux), driven by keys, read from the screen. In CI tmux is installed by
/// .ci/run; when it is missing these tests fail, they are not skipped.
@Suite("interface in tmux", .serialized)
struct InterfaceTests {
    /// The text under a column heading (`Pending`, `Ready`, …): the cells
    /// from the heading's column to the next heading, on every row below.
    static func column(_ heading: String, in screen: [String]) -> String {
        let headings = ["Pending", "Ready", "Executing", "Finished", "Cancelled"]
        guard let headerRow = screen.firstIndex(where: { line in headings.allSatisfy { line.contains($0) } }) else {
            return ""
        }
        let header = Array(screen[headerRow])
        func start(_ name: String) -> Int? {
            guard let range = screen[headerRow].range(of: name) else { return nil }
            return screen[headerRow].distance(from: screen[headerRow].startIndex, to: range.lowerBound)
        }
        guard let from = start(heading) else { return "" }
        let next = headings.compactMap(start).filter { $0 > from }.min() ?? header.count + 200
        var text: [String] = []
        // The cards only: stop at the bottom panes' rule.
        for line in screen[(headerRow + 1)...].prefix(while: { !$0.contains("Inspector") }) {
            let chars = Array(line)
            guard from < chars.count else { continue }
            text.append(String(chars[from..<min(next, chars.count)]))
        }
        return text.joined(separator: "\n")
    }

    static func scenario(_ text: String) throws -> (ScratchFiles, String) {
        let scratch = try ScratchFiles()
        return (scratch, try scratch.write("ui.ops", text))
    }

    @Test("opens a scenario: five columns, cards, and an operation reaching Finished; q restores the terminal")
    func opensAndFinishes() throws {
        let (scratch, path) = try Self.scenario(
            """
            title "Quick and slow"
            queue q max 2
            op quick work 300ms
            op slow work 60s

            """)
        defer { scratch.remove() }
        let tmux = try TmuxSession([path])
        let screen = try tmux.waitFor("the operation to finish") { text in
            text.contains("Finished 1")
        }
        for heading in ["Pending", "Ready", "Executing", "Finished", "Cancelled"] {
            #expect(screen.contains(heading))
        }
        #expect(screen.contains("Quick and slow"))
        let lines = try tmux.screen()
        #expect(Self.column("Finished", in: lines).contains("quick"))
        #expect(Self.column("Executing", in: lines).contains("slow"))
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("c on an executing operation ends it in Cancelled")
    func cancelSelected() throws {
        let (scratch, path) = try Self.scenario(
            """
            queue q serial
            op long work 60s
            op next work 60s

            """)
        defer { scratch.remove() }
        let tmux = try TmuxSession([path])
        try tmux.waitFor("long to execute") {
            Self.column("Executing", in: $0.components(separatedBy: "\n")).contains("long")
        }
        // Move the selection to the Executing column (empty columns are skipped).
        try tmux.send("Right")
        try tmux.send("Right")
        try tmux.waitFor(text: "Inspector: long")
        try tmux.send("c")
        let screen = try tmux.waitFor("long to be cancelled") {
            Self.column("Cancelled", in: $0.components(separatedBy: "\n")).contains("long")
        }
        #expect(screen.contains("Cancelled 1"))
        // The next operation of the serial queue starts once the cancelled one finished.
        try tmux.waitFor("next to start") {
            Self.column("Executing", in: $0.components(separatedBy: "\n")).contains("next")
        }
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("s suspends the selected queue: SUSPENDED, and nothing new starts")
    func suspendQueue() throws {
        let (scratch, path) = try Self.scenario(
            """
            queue q serial
            op first work 1s
            op second work 1s
            op third work 1s

            """)
        defer { scratch.remove() }
        let tmux = try TmuxSession([path, "--paused", "--speed", "2"])
        try tmux.waitFor(text: "not started — Space starts it")
        try tmux.send("Space")
        try tmux.waitFor("first to execute") {
            Self.column("Executing", in: $0.components(separatedBy: "\n")).contains("first")
        }
        try tmux.send("s")
        try tmux.waitFor(text: "SUSPENDED")
        let screen = try tmux.waitFor("first to finish") {
            Self.column("Finished", in: $0.components(separatedBy: "\n")).contains("first")
        }
        #expect(screen.contains("SUSPENDED"))
        // Well past second's would-be start and finish: nothing started.
        Thread.sleep(forTimeInterval: 1.5)
        let later = try tmux.screen()
        #expect(Self.column("Executing", in: later).contains("second") == false)
        #expect(Self.column("Ready", in: later).contains("second"))
        #expect(Self.column("Ready", in: later).contains("third"))
        try tmux.send("s")
        try tmux.waitFor("second to run after resume") {
            let lines = $0.components(separatedBy: "\n")
            return Self.column("Executing", in: lines).contains("second")
                || Self.column("Finished", in: lines).contains("second")
        }
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("+ raises the cap: the queue line shows it and one more operation starts")
    func raiseCap() throws {
        let (scratch, path) = try Self.scenario(
            """
            queue net max 1
            op a async 60s
            op b async 60s
            op c async 60s

            """)
        defer { scratch.remove() }
        let tmux = try TmuxSession([path])
        try tmux.waitFor(text: "1 running · cap 1 (serial)")
        try tmux.send("+")
        try tmux.waitFor(text: "2 running · cap 2")
        let lines = try tmux.screen()
        let executing = Self.column("Executing", in: lines)
        #expect(executing.contains("a") && executing.contains("b"))
        #expect(Self.column("Ready", in: lines).contains("c"))
        try tmux.send("q")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("resizing redraws; below the minimum size it says how large the terminal must be")
    func resize() throws {
        let (scratch, path) = try Self.scenario("queue q\nop a work 60s\n")
        defer { scratch.remove() }
        let tmux = try TmuxSession([path])
        try tmux.waitFor(text: "Executing")
        try tmux.resize(columns: 80, rows: 24)
        try tmux.waitFor("a redraw at 80×24") { text in
            // The title bar now ends (with the clock and speed) by column 80.
            let title = text.components(separatedBy: "\n").first ?? ""
            return title.contains("×1") && title.trimmingCharacters(in: .whitespaces).count <= 80
                && text.contains("Cancelled")
        }
        try tmux.resize(columns: 40, rows: 10)
        try tmux.waitFor(text: "opscope needs at least")
        try tmux.resize(columns: 120, rows: 40)
        try tmux.waitFor(text: "Cancelled")
        try tmux.send("C-c")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("[ steps back into the run's history, Home goes to its start, End back to the live end")
    func historyCursor() throws {
        let tmux = try TmuxSession(["--speed", "4", "scenarios/01-chain.ops"])
        try tmux.waitFor(text: "ended")
        try tmux.send("[")
        let back = try tmux.waitFor(text: "history — End returns to live")
        // One notification back from the last: "event N-1 of N".
        let title = back.components(separatedBy: "\n").first ?? ""
        let numbers = title.components(separatedBy: "event ").last?.components(separatedBy: " ") ?? []
        #expect(numbers.count > 2 && Int(numbers[0]).map { $0 + 1 } == Int(numbers[2]), "\(title)")
        try tmux.send("Home")
        let start = try tmux.waitFor(text: "event 0 of ")
        // Before the first notification every card is still to be added.
        #expect(InterfaceTests.column("Finished", in: start.components(separatedBy: "\n")).contains("fetch") == false)
        try tmux.send("}")
        try tmux.waitFor(text: "event 1 of ")
        try tmux.send("End")
        try tmux.waitFor("the live end again") { $0.contains("ended") && !$0.contains("history") }
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
    }

    @Test("keys typed before the program started (during a build) are dropped: the picker opens and stays")
    func typeAheadIsDropped() throws {
        let tmux = try TmuxSession([], columns: 80, rows: 24, startDelay: 1.5)
        // Typed while the shell still sleeps, in the terminal's normal mode.
        try tmux.send("Down", "Down", "Escape")
        try tmux.waitFor(text: "choose a scenario")
        Thread.sleep(forTimeInterval: 0.5)
        let text = try tmux.screenText()
        #expect(!text.contains("[exit"))
        #expect(text.contains("▶ next ▸"))
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("without a file, a picker lists the library; Enter opens one, q asks and q goes back, q quits")
    func picker() throws {
        let tmux = try TmuxSession([])
        try tmux.waitFor(text: "choose a scenario")
        // It opens on the next question; the lessons follow.
        try tmux.waitFor(text: "▶ next ▸")
        try tmux.send("Down")
        try tmux.waitFor(text: "▶ 01-chain.ops")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Download, decode, save")
        try tmux.waitFor(text: "Executing")
        // A lesson asks before it is left; any other key stays.
        try tmux.send("q")
        try tmux.waitFor(text: "q again leaves the lesson; any other key stays")
        try tmux.send("n")
        try tmux.waitFor("the question gone, still the lesson") {
            !$0.contains("q again leaves") && $0.contains("Download, decode, save")
        }
        try tmux.send("q")
        try tmux.waitFor(text: "q again leaves the lesson")
        try tmux.send("q")
        try tmux.waitFor(text: "choose a scenario")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    @Test("the picker lists the mistakes under their heading; Enter on one shows what check prints, Esc closes it")
    func pickerShowsAMistakesDiagnostics() throws {
        let root = OpscopeBinary.packageRoot.path
        func count(_ folder: String) throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder).filter { $0.hasSuffix(".ops") }
                .count
        }
        // The library, its quizzes again as questions, the katas, the mistakes.
        let questions = try FileManager.default.contentsOfDirectory(atPath: root + "/scenarios").filter { name in
            let text =
                name.hasSuffix(".ops") ? try? String(contentsOfFile: root + "/scenarios/" + name, encoding: .utf8) : nil
            return text?.split(separator: "\n").contains { $0.hasPrefix("quiz ") } ?? false
        }.count
        // The one practice asks next, the library, its quizzes, the katas, the mistakes.
        let total =
            try count("scenarios") + (questions > 0 ? questions + 1 : 0) + Kata.all.count + count("scenarios/mistakes")
        let tmux = try TmuxSession([])
        try tmux.waitFor(text: "1 of \(total)")
        try tmux.send("End")
        try tmux.waitFor(text: "\(total) of \(total)")
        try tmux.waitFor(text: "Mistakes: files that fail `opscope check`, each teaching one rule")
        try tmux.waitFor(text: "Enter show the errors")
        try tmux.send("Enter")
        let pane = try tmux.waitFor("the diagnostics pane") { $0.contains("what opscope check says") }
        let check = try OpscopeBinary.run(["check", "scenarios/mistakes/misspelt-dependency.ops"])
        for line in check.stderr.split(separator: "\n") {
            #expect(pane.contains(line.trimmingCharacters(in: .whitespaces)), "the pane misses: \(line)")
        }
        #expect(pane.contains("choose a scenario") && !pane.contains("opscope ·"))  // still the picker: no run started
        try tmux.send("Escape")
        try tmux.waitFor("the pane to close") { !$0.contains("what opscope check says") && $0.contains("q quit") }
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }

    /// A terminal type, the mouse modes ncurses turns on for it, and the
    /// report format it decodes itself; the other format reaches opscope as
    /// characters and must be recognised too.
    struct MouseTerminal: Sendable, CustomStringConvertible {
        var term: String
        var modes: String
        var sgrIsNative: Bool
        var description: String { term }
    }

    static let mouseTerminals = [
        MouseTerminal(term: "tmux-256color", modes: "standard=1 button=0 all=0 sgr=0", sgrIsNative: false),
        MouseTerminal(term: "xterm-256color", modes: "standard=1 button=0 all=0 sgr=1", sgrIsNative: true),
    ]

    @Test(
        "click tracking only; a click selects a card or a queue, the wheel scrolls the log; no report reads as keys",
        arguments: mouseTerminals)
    func mouse(terminal: MouseTerminal) throws {
        let names = (1...12).map { String(format: "w%02d", $0) }
        let (scratch, path) = try Self.scenario(
            "title \"Mouse\"\nqueue a serial\nqueue b serial\n"
                + names.enumerated().map { "op \($1) on \($0 % 2 == 0 ? "a" : "b") work 60s\n" }.joined())
        defer { scratch.remove() }
        let tmux = try TmuxSession([path, "--paused"], environment: ["TERM": terminal.term])
        // Started, then paused again: the cards stand still in Ready and Executing.
        try tmux.waitFor(text: "not started — Space starts it")
        try tmux.send("Space")
        try tmux.waitFor(text: "Executing 2")
        try tmux.send("Space")
        try tmux.waitFor(text: "PAUSED")
        try tmux.waitFor(text: "Inspector: w01")
        // Button reports only: no drag (1002) or any-motion (1003) tracking.
        #expect(try tmux.mouseModes() == terminal.modes)
        func native(_ column: Int, _ row: Int, button: Int = 0, pressOnly: Bool = false) -> [UInt8] {
            terminal.sgrIsNative
                ? TmuxSession.sgrClick(column: column, row: row, button: button, pressOnly: pressOnly)
                : TmuxSession.x10Click(column: column, row: row, button: button, pressOnly: pressOnly)
        }
        func foreign(_ column: Int, _ row: Int, button: Int = 0, pressOnly: Bool = false) -> [UInt8] {
            terminal.sgrIsNative
                ? TmuxSession.x10Click(column: column, row: row, button: button, pressOnly: pressOnly)
                : TmuxSession.sgrClick(column: column, row: row, button: button, pressOnly: pressOnly)
        }
        /// Where a card's name is drawn: its first row, two cells in.
        func place(of card: String) throws -> (column: Int, row: Int) {
            for (row, line) in try tmux.screen().enumerated() {
                guard let range = line.range(of: "│" + card + " ") else { continue }
                return (line.distance(from: line.startIndex, to: range.lowerBound) + 2, row)
            }
            throw TmuxSession.Failure(description: "no card \(card) on the screen:\n\(try tmux.screenText())")
        }

        // A click in the format terminfo names, and one in the other format.
        let w05 = try place(of: "w05")
        try tmux.sendBytes(native(w05.column, w05.row))
        try tmux.waitFor(text: "Inspector: w05")
        let w06 = try place(of: "w06")
        try tmux.sendBytes(foreign(w06.column, w06.row))
        try tmux.waitFor(text: "Inspector: w06")
        // The queue lines: a click on a's line selects queue a.
        try tmux.sendBytes(native(3, 1))
        try tmux.waitFor("queue a selected") { $0.components(separatedBy: "\n")[1].hasPrefix("▶ a ") }

        // The wheel over the log goes back to older lines.
        let lines = try tmux.screen()
        guard let rule = lines.firstIndex(where: { $0.contains(" Log ") && $0.contains("Inspector") }),
            let log = lines[rule].range(of: " Log ")
        else { throw TmuxSession.Failure(description: "no log pane:\n\(lines.joined(separator: "\n"))") }
        let logColumn = lines[rule].distance(from: lines[rule].startIndex, to: log.upperBound)
        for _ in 0..<2 { try tmux.sendBytes(native(logColumn, rule + 3, button: 64, pressOnly: true)) }
        try tmux.waitFor(text: "newer below")
        try tmux.sendBytes(foreign(logColumn, rule + 3, button: 65, pressOnly: true))

        // Other buttons, motion, releases: nothing, and never "unknown key".
        try tmux.sendBytes(
            native(2, 5, button: 2) + foreign(2, 5, button: 2) + native(10, 10, button: 35, pressOnly: true))
        let w07 = try place(of: "w07")
        try tmux.sendBytes(foreign(w07.column, w07.row))
        let screen = try tmux.waitFor("w07 selected") { $0.contains("Inspector: w07") }
        #expect(!screen.contains("unknown key"))
        // The '<' of a report that leaked as keys would have halved the speed.
        #expect(screen.components(separatedBy: "\n")[0].contains("×1 "))

        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
        #expect(try tmux.mouseModes() == "standard=0 button=0 all=0 sgr=0")
    }

    @Test("in the picker a click selects an entry and the wheel moves the selection")
    func pickerMouse() throws {
        let tmux = try TmuxSession([])
        try tmux.waitFor(text: "choose a scenario")
        try tmux.waitFor(text: "1 of ")
        // Row 2 is the next question's heading, row 3 that question; then
        // two rows per lesson: row 7 is the third entry, 02.
        try tmux.sendBytes(TmuxSession.x10Click(column: 4, row: 7))
        try tmux.waitFor(text: "3 of ")
        try tmux.sendBytes(TmuxSession.sgrClick(column: 4, row: 7, button: 65, pressOnly: true))
        try tmux.waitFor(text: "4 of ")
        try tmux.send("q")
        try tmux.waitFor(text: "[exit 0]")
        try tmux.waitFor(text: "[terminal restored]")
    }
}
