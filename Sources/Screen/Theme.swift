import Board

/// The styles of the interface by role. Built from `FrameInput.colors`:
/// without colours every role keeps its attributes (selection is reverse,
/// headings bold, background facts dim), so the screen stays readable in
/// no-colour mode.
struct Theme: Sendable {
    let colors: Bool

    init(colors: Bool) { self.colors = colors }

    private func tint(_ style: Style, _ color: PaletteColor) -> Style {
        colors ? style.with(foreground: color) : style
    }

    var plain: Style { .plain }
    var titleBar: Style { Style.plain.reversed.bolded }
    var heading: Style { Style.plain.bolded }
    var dim: Style { Style.plain.dimmed }
    var rule: Style { colors ? tint(.plain, .blue) : Style.plain.dimmed }
    var selected: Style { Style.plain.reversed }
    var selectedQueue: Style { Style.plain.reversed.bolded }
    var refusal: Style { tint(Style.plain.bolded, .yellow) }
    var info: Style { tint(.plain, .cyan) }
    var held: Style { tint(Style.plain.bolded, .green) }
    var failed: Style { tint(Style.plain.bolded, .red) }
    var cancelMark: Style { tint(Style.plain.bolded, .red) }
    var paused: Style { tint(Style.plain.reversed.bolded, .yellow) }
    var warning: Style { tint(Style.plain.bolded, .magenta) }
    /// A caption the run is paused at, and one already read.
    var caption: Style { tint(Style.plain.bolded, .cyan) }
    var captionSeen: Style { tint(.plain, .cyan) }
    /// The run is waiting for the user (a stall the user can leave).
    var waiting: Style { tint(Style.plain.reversed.bolded, .magenta) }

    /// The header colour of a column.
    func column(_ phase: Phase) -> Style {
        switch phase {
        case .notAdded, .pending: return tint(heading, .default)
        case .ready: return tint(heading, .cyan)
        case .executing: return tint(heading, .yellow)
        case .finished: return tint(heading, .green)
        case .cancelled: return tint(heading, .red)
        }
    }

    /// A progress bar.
    var bar: Style { tint(.plain, .yellow) }
}
