import Screen
import Testing

@testable import CursesBackend

/// ncurses has one current screen per process, so these run one at a time,
/// on the main actor, against a terminal type given explicitly (not $TERM).
@MainActor
@Suite(.serialized) struct HeadlessSessionTests {
    private func board(_ size: Size, marker: String = "●") -> CellGrid {
        var grid = CellGrid(size: size)
        let columns = grid.bounds.inset(top: 1, left: 0, bottom: 1, right: 0)
            .splitEvenly(.horizontal, count: 5)
        grid.write(" opscope  scenario 中文 t=1.2s", at: .zero, style: Style(reverse: true))
        for (i, (rect, title)) in zip(columns, ["Pending", "Ready", "Executing", "Finished", "Cancelled"])
            .enumerated()
        {
            grid.drawBox(rect, glyphs: .unicode, style: Style(foreground: .cyan), title: title)
            for card in 0..<6 {
                grid.write(
                    "\(marker) op\(i)-\(card) 한",
                    at: Position(column: rect.x + 2, row: rect.y + 1 + card * 2),
                    style: Style(foreground: i == 2 ? .yellow : .default, bold: card == 0),
                    clippedTo: rect.inset(by: 1))
            }
        }
        grid.write("q quit  ? help", at: Position(column: 0, row: size.rows - 1), style: Style(dim: true))
        return grid
    }

    @Test func flushingTheSameGridTwiceWritesAlmostNothing() throws {
        let session = try TerminalSession.headless(term: "tmux-256color", size: Size(columns: 80, rows: 24))
        defer { session.close() }
        #expect(session.size == Size(columns: 80, rows: 24))
        let grid = board(session.size)
        session.flush(grid)
        let before = session.bytesWritten
        let cells = session.flush(grid)
        #expect(cells == 0)
        #expect(session.bytesWritten - before < 16)
    }

    @Test func changingOneCardWritesFewBytes() throws {
        let session = try TerminalSession.headless(term: "tmux-256color", size: Size(columns: 200, rows: 50))
        defer { session.close() }
        let start = session.bytesWritten
        session.flush(board(session.size))
        let full = session.bytesWritten - start
        #expect(full > 2000)
        #expect(full < 32 * 1024, "full redraw at 200x50: \(full) bytes")
        var changed = board(session.size)
        changed.write("✓ op1-3 done", at: Position(column: 42, row: 8), style: Style(foreground: .green))
        let before = session.bytesWritten
        let cells = session.flush(changed)
        let frame = session.bytesWritten - before
        #expect(cells > 0 && cells < 20)
        #expect(frame > 0 && frame < 512, "one-card frame: \(frame) bytes")
    }

    /// What ncurses writes to turn the mouse on: click tracking (DECSET
    /// 1000), in SGR format (1006) where terminfo's XM asks for it, and
    /// never drag (1002) or any-motion (1003) tracking, which would keep
    /// the terminal from selecting text.
    @Test(arguments: [("tmux-256color", "\u{1B}[?1000h"), ("xterm-256color", "\u{1B}[?1006;1000h")])
    func theMouseIsClickTrackingOnly(term: String, enable: String) throws {
        let session = try TerminalSession.headless(term: term, size: Size(columns: 80, rows: 24))
        defer { session.close() }
        let written = String(decoding: session.outputBytes, as: UTF8.self)
        #expect(written.contains(enable))
        for motion in ["1002", "1003", "1005", "1015"] {
            #expect(!written.contains(motion), "\(term): asks for mode \(motion)")
        }
    }

    @Test func withoutTheMouseOptionNoMouseModeIsSet() throws {
        let session = try TerminalSession.headless(
            term: "xterm-256color", size: Size(columns: 80, rows: 24), options: TerminalOptions(mouse: false))
        defer { session.close() }
        #expect(!String(decoding: session.outputBytes, as: UTF8.self).contains("1000h"))
    }

    @Test func wideCharactersReachTheOutput() throws {
        let session = try TerminalSession.headless(term: "xterm-256color", size: Size(columns: 20, rows: 3))
        defer { session.close() }
        var grid = CellGrid(size: session.size)
        grid.write("中文 ok", at: Position(column: 1, row: 1))
        session.flush(grid)
        let text = String(decoding: session.outputBytes, as: UTF8.self)
        if session.isUTF8 {
            #expect(text.contains("中文"))
        } else {
            #expect(text.contains("?"))  // the C locale cannot show them: placeholders keep columns
        }
        #expect(text.contains("ok"))
    }

    @Test func aResizeRedrawsEverything() throws {
        let session = try TerminalSession.headless(term: "tmux-256color", size: Size(columns: 40, rows: 10))
        defer { session.close() }
        session.flush(board(session.size))
        session.resize(to: Size(columns: 60, rows: 12))
        #expect(session.size == Size(columns: 60, rows: 12))
        let cells = session.flush(board(session.size))
        #expect(cells > 60 * 12 / 2)
    }

    @Test func onlyOneSessionAtATimeAndCloseIsIdempotent() throws {
        let session = try TerminalSession.headless(term: "tmux-256color", size: Size(columns: 10, rows: 2))
        #expect(throws: TerminalError.alreadyOpen) {
            _ = try TerminalSession.headless(term: "tmux-256color", size: Size(columns: 10, rows: 2))
        }
        session.close()
        session.close()
        #expect(session.flush(CellGrid(size: session.size)) == 0)
        let again = try TerminalSession.headless(term: "xterm-256color", size: Size(columns: 10, rows: 2))
        again.close()
    }

    @Test func anUnknownTerminalTypeIsAnError() {
        #expect(throws: TerminalError.unknownTerminal("no-such-terminal-xyz")) {
            _ = try TerminalSession.headless(term: "no-such-terminal-xyz", size: Size(columns: 10, rows: 2))
        }
    }

    @Test func colourCanBeTurnedOff() throws {
        let session = try TerminalSession.headless(
            term: "tmux-256color", size: Size(columns: 10, rows: 2), options: TerminalOptions(colors: false))
        defer { session.close() }
        #expect(!session.colorsEnabled)
    }
}

/// What curses ends up holding after flushes, read back from its window.
@MainActor
@Suite(.serialized) struct HeadlessScreenContentTests {
    @Test func theScreenMatchesTheGridAfterPartialUpdates() throws {
        let session = try TerminalSession.headless(term: "tmux-256color", size: Size(columns: 12, rows: 3))
        defer { session.close() }
        guard session.isUTF8 else { return }  // wide characters need a UTF-8 locale
        var grid = CellGrid(size: session.size)
        grid.drawBox(grid.bounds, glyphs: .unicode, title: "中")
        grid.write("a한b", at: Position(column: 2, row: 1))
        session.flush(grid)
        #expect(session.screenLines() == grid.lines)
        grid.write("中x", at: Position(column: 4, row: 1))  // splits 한, replaces b
        session.flush(grid)
        #expect(session.screenLines() == grid.lines)
        #expect(session.screenLines()[1] == "│ a 中x    │")
    }

    @Test func theBottomRightCornerIsWritten() throws {
        let session = try TerminalSession.headless(term: "xterm-256color", size: Size(columns: 6, rows: 2))
        defer { session.close() }
        var grid = CellGrid(size: session.size)
        grid.write("abcdef", at: Position(column: 0, row: 1))
        session.flush(grid)
        #expect(session.screenLines() == ["      ", "abcdef"])
    }

    @Test func aGridWiderThanTheScreenIsClippedNotWrapped() throws {
        let session = try TerminalSession.headless(term: "tmux-256color", size: Size(columns: 4, rows: 2))
        defer { session.close() }
        var grid = CellGrid(columns: 8, rows: 3)
        grid.write("abcdefgh", at: .zero)
        grid.write("12345678", at: Position(column: 0, row: 1))
        session.flush(grid)
        #expect(session.screenLines() == ["abcd", "1234"])
    }
}
