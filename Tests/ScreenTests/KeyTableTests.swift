import Testing

@testable import Screen

/// A stand-in for opscope's commands, to test the mechanism alone.
private enum SampleCommand: Sendable, Equatable {
    case quit, help, selectNext, selectPrevious, cancel, suspend
}

@Suite struct KeyTableTests {
    private let table = KeyTable<SampleCommand>([
        KeyBinding([.character("q"), .ctrl("c")], .quit, help: "quit", group: "General"),
        KeyBinding([.character("?"), .function(1)], .help, help: "show this help", group: "General"),
        KeyBinding([.down, .tab], .selectNext, help: "select the next operation", group: "Selection"),
        KeyBinding(
            [.up, .shiftTab], .selectPrevious, help: "select the previous operation", group: "Selection"),
        KeyBinding([.character("c"), .delete], .cancel, help: "cancel the operation", group: "Operation"),
        KeyBinding([.character("s")], .suspend, help: "suspend or resume its queue", group: "General"),
    ])

    @Test(arguments: [
        (Key.character("q"), SampleCommand.quit), (.ctrl("c"), .quit), (.function(1), .help),
        (.tab, .selectNext), (.shiftTab, .selectPrevious), (.delete, .cancel), (.character("s"), .suspend),
    ])
    fileprivate func boundKeysFindTheirCommand(key: Key, command: SampleCommand) {
        #expect(table.command(for: key) == command)
    }

    @Test(arguments: [Key.character("Q"), .character("x"), .resize, .mouse(column: 1, row: 1), .unknown(999)])
    func unboundKeysFindNothing(key: Key) {
        #expect(table.command(for: key) == nil)
    }

    @Test func helpLinesAreGroupedInOrderOfFirstUse() {
        #expect(
            table.helpLines() == [
                "General",
                "  q, Ctrl-C     quit",
                "  ?, F1         show this help",
                "  s             suspend or resume its queue",
                "",
                "Selection",
                "  ↓, Tab        select the next operation",
                "  ↑, Shift-Tab  select the previous operation",
                "",
                "Operation",
                "  c, Del        cancel the operation",
            ])
    }

    @Test func asciiHelpAvoidsArrowSymbols() {
        #expect(table.helpLines(ascii: true)[6] == "  Down, Tab      select the next operation")
    }

    @Test func duplicateKeysAreReportedAndTheFirstBindingWins() {
        let dup = KeyTable<SampleCommand>([
            KeyBinding([.character("q")], .quit, help: "quit", group: "G"),
            KeyBinding([.character("q"), .character("h")], .help, help: "help", group: "G"),
        ])
        #expect(dup.conflicts == [.character("q")])
        #expect(dup.command(for: .character("q")) == .quit)
        #expect(dup.command(for: .character("h")) == .help)
        #expect(table.conflicts.isEmpty)
    }

    @Test func keyLabels() {
        #expect(Key.character(" ").label() == "Space")
        #expect(Key.ctrl("l").label() == "Ctrl-L")
        #expect(Key.left.label(ascii: true) == "Left")
    }
}
