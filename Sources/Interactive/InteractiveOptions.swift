import Foundation

/// Settings of the interactive view, from the command line.
package struct InteractiveOptions {
    /// `--speed X`, scenario seconds per real second; nil when not given on
    /// the command line (the view then uses the scenario's own `speed`
    /// statement, or 1).
    package var speed: Double? = nil
    package var startsPaused = false
    /// `--lesson`: pause at each caption (the picker always does).
    package var lesson = false
    package var ascii = false
    package var noColor = false
    /// `opscope quiz FILE` on a terminal: open the scenario as its quiz's
    /// question (predict mode).
    package var asQuestion = false
    /// The library file that question is, when its first answer is kept in
    /// the practice record.
    package var practiceQuestion: String?
    /// `--watch`: each save of the scenario file reloads it (a new run, or
    /// its diagnostics over the run shown).
    package var watch = false
    /// The command line of an opscope that carries on when `q` leaves a
    /// question whose wait took the main thread for good (`practice`: the
    /// questions left); nil: leaving ends opscope.
    package var carryOnAfterLostMainThread: [String]? = nil
    /// `--picked FILE`: the picker opens with FILE open from it, as Enter
    /// on its entry would (`asQuestion`: its entry under the questions).
    /// What `r` starts after a wait took the main thread of a scenario
    /// opened from the picker.
    package var picked: (path: String, asQuestion: Bool)? = nil

    package init() {}
}
