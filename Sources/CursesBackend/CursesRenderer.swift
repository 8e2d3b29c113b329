import CNCurses
import Screen

#if canImport(Glibc)
    import Glibc
#endif

/// Writes `CellGrid` frames to a curses window, touching only the cells that
/// changed since the last frame it flushed (`CellGrid.diff`). ncurses then
/// does its own optimisation of the terminal output on `doupdate`.
/// Main thread only, like all of ncurses.
@MainActor
final class CursesRenderer {
    private let window: UnsafeMutablePointer<WINDOW>
    private let colors: Bool
    private var pairs: ColorPairs
    /// The last grid flushed; nil forces a full redraw.
    private var previous: CellGrid?

    init(window: UnsafeMutablePointer<WINDOW>, colors: Bool) {
        self.window = window
        self.colors = colors
        self.pairs = ColorPairs(capacity: colors ? Int(opscope_color_pairs()) : 1)
    }

    /// Forgets the last frame, so the next flush repaints every cell and
    /// clears the physical screen first (after a resize, or Ctrl-L).
    func invalidate() {
        previous = nil
    }

    /// Draws `grid` at the window's top-left corner and updates the terminal.
    /// Returns the number of cells written (for tests and statistics).
    @discardableResult
    func flush(_ grid: CellGrid) -> Int {
        let full = previous == nil || previous?.size != grid.size
        if full {
            werase(window)
            clearok(opscope_curscr(), true)
        }
        let runs = grid.diff(from: full ? CellGrid(size: .zero) : previous!)
        var written = 0
        var cc = cchar_t()
        let screenColumns = Int(opscope_maxx(window))
        let screenRows = Int(opscope_maxy(window))
        for run in runs where run.row < screenRows {
            for (offset, cell) in run.cells.enumerated() where !cell.isContinuation {
                let column = run.column + offset
                // Cells past the right edge (a grid drawn for a larger screen)
                // are skipped: curses would wrap them onto the next row.
                guard column + max(1, Int(cell.width)) <= screenColumns else { break }
                guard wmove(window, Int32(run.row), Int32(column)) == OK else { break }
                let covered = fill(&cc, with: cell)
                wadd_wch(window, &cc)
                if covered < Int(cell.width) {
                    // A wide cell shown as "?": blank its right half too.
                    var blank = cchar_t()
                    _ = fill(&blank, with: .blank(cell.style))
                    wadd_wch(window, &blank)
                }
                written += 1
            }
        }
        wnoutrefresh(window)
        doupdate()
        previous = grid
        return written
    }

    /// Builds the curses character for a cell. The base character must have
    /// the width the grid gave it according to the C library's `wcwidth`
    /// (which is what ncurses counts with); when they disagree, or the locale
    /// cannot show it, the cell shows `?` (twice for a wide cell) so that
    /// nothing after it on the row shifts. Combining marks ncurses can hold
    /// (up to CCHARW_MAX - 1) are kept; others are dropped.
    /// Returns the number of columns the curses character covers.
    private func fill(_ cc: inout cchar_t, with cell: Cell) -> Int {
        var chars: [wchar_t] = []
        var covered = Int(cell.width)
        var scalars = cell.text.unicodeScalars.makeIterator()
        if let base = scalars.next(), opscope_wcwidth(wchar_t(bitPattern: base.value)) == Int32(cell.width) {
            chars.append(wchar_t(bitPattern: base.value))
            while let mark = scalars.next(), chars.count < Int(CCHARW_MAX) {
                if opscope_wcwidth(wchar_t(bitPattern: mark.value)) == 0 {
                    chars.append(wchar_t(bitPattern: mark.value))
                }
            }
        } else if cell.width == 2 && opscope_wcwidth(0xFF1F) == 2 {
            chars = [0xFF1F]  // fullwidth "？": still one wide cell
        } else {
            chars = [0x3F]  // "?"
            covered = 1
        }
        chars.append(0)
        let style = cell.style
        var attributes = opscope_attr_normal()
        if style.bold { attributes |= opscope_attr_bold() }
        if style.dim { attributes |= opscope_attr_dim() }
        if style.reverse { attributes |= opscope_attr_reverse() }
        if style.underline { attributes |= opscope_attr_underline() }
        var pair: Int16 = 0
        if colors {
            let (number, isNew) = pairs.pair(foreground: style.foreground, background: style.background)
            if isNew {
                init_pair(
                    Int16(number), ColorPairs.cursesColor(style.foreground),
                    ColorPairs.cursesColor(style.background))
            }
            pair = Int16(number)
        }
        setcchar(&cc, chars, attributes, pair, nil)
        return covered
    }

    /// The text curses holds for each row of the window (its idea of the
    /// screen after the last flush), wide characters once each; for tests.
    func windowLines() -> [String] {
        let columns = Int(opscope_maxx(window))
        return (0..<Int(opscope_maxy(window))).map { row in
            var buffer = [wchar_t](repeating: 0, count: columns + 1)
            let n = mvwinnwstr(window, Int32(row), 0, &buffer, Int32(columns))
            let scalars = buffer.prefix(max(0, Int(n))).compactMap { Unicode.Scalar(UInt32(bitPattern: $0)) }
            return String(String.UnicodeScalarView(scalars))
        }
    }
}
