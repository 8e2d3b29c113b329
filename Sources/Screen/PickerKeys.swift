/// What a key does in the scenario picker: in its list, and in the pane
/// that shows why a file cannot open.
public enum PickerCommand: Sendable, Hashable {
    case up, down, pageUp, pageDown, first, last
    /// The first entry of the next section (round to the first), or of the previous one.
    case nextSection, previousSection
    /// Open the selected file (or show why it cannot open); close the pane.
    case choose
    /// Quit from the list; close the pane.
    case back
    /// Quit from anywhere.
    case quit
}

/// The picker's keys, one table for the list and the pane as the run's
/// screen has `InterfaceKeys`: the handler asks it what a key means.
public enum PickerKeys {
    public static let table = KeyTable<PickerCommand>([
        KeyBinding([.up, .character("k")], .up, help: "the entry above", group: "Picker"),
        KeyBinding([.down, .character("j")], .down, help: "the entry below", group: "Picker"),
        KeyBinding([.pageUp], .pageUp, help: "a page up", group: "Picker"),
        KeyBinding([.pageDown], .pageDown, help: "a page down", group: "Picker"),
        KeyBinding([.home], .first, help: "the first entry", group: "Picker"),
        KeyBinding([.end], .last, help: "the last entry", group: "Picker"),
        KeyBinding([.tab], .nextSection, help: "the next section's first entry", group: "Picker"),
        KeyBinding([.shiftTab], .previousSection, help: "the previous section's first entry", group: "Picker"),
        KeyBinding(
            [.enter], .choose, help: "open the scenario, or show why it cannot open; close that pane",
            group: "Picker"),
        KeyBinding([.character("q"), .escape], .back, help: "quit; close the pane", group: "Picker"),
        KeyBinding([.ctrl("c")], .quit, help: "quit", group: "Picker"),
    ])
}
