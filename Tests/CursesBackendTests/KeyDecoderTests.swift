import CNCurses
import Screen
import Testing

@testable import CursesBackend

@Suite struct KeyDecoderTests {
    private static let characters: [(UInt32, Key)] = [
        (0x71, .character("q")), (0x51, .character("Q")), (0x20, .character(" ")),
        (0x4E2D, .character("中")), (0x1F680, .character("🚀")),
        (9, .tab), (10, .enter), (13, .enter), (27, .escape), (127, .backspace), (8, .backspace),
        (3, .ctrl("c")), (1, .ctrl("a")), (12, .ctrl("l")), (26, .ctrl("z")), (0, .ctrl("@")),
        (28, .ctrl("\\")), (31, .ctrl("_")), (0x85, .unknown(0x85)), (0xD800, .unknown(0xD800)),
    ]

    @Test(arguments: characters)
    func charactersDecode(code: UInt32, key: Key) {
        #expect(KeyDecoder.decode(status: OK, code: code) == key)
    }

    private static let functionKeys: [(Int32, Key)] = [
        (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
        (KEY_HOME, .home), (KEY_END, .end), (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown),
        (KEY_IC, .insert), (KEY_DC, .delete), (KEY_BACKSPACE, .backspace), (KEY_ENTER, .enter),
        (KEY_BTAB, .shiftTab), (KEY_RESIZE, .resize), (KEY_F0 + 1, .function(1)),
        (KEY_F0 + 12, .function(12)), (KEY_SUSPEND, .unknown(Int(KEY_SUSPEND))),
    ]

    @Test(arguments: functionKeys)
    func functionKeysDecode(code: Int32, key: Key) {
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(code)) == key)
    }

    @Test func noInputIsNoKey() {
        #expect(KeyDecoder.decode(status: ERR, code: 0x71) == nil)
    }

    @Test func aPrimaryPressIsAClickAndTheWheelScrolls() {
        func decode(_ event: MouseReport.Event) -> Key? {
            KeyDecoder.decode(
                status: KEY_CODE_YES, code: UInt32(KEY_MOUSE), mouse: MouseReport(column: 12, row: 3, event: event))
        }
        #expect(decode(.press(button: 1)) == .mouse(column: 12, row: 3))
        #expect(decode(.wheelUp) == .wheel(column: 12, row: 3, down: false))
        #expect(decode(.wheelDown) == .wheel(column: 12, row: 3, down: true))
    }

    @Test(arguments: [MouseReport.Event.release, .press(button: 2), .press(button: 3), .motion, .other])
    func otherMouseEventsAreNoKey(event: MouseReport.Event) {
        let report = MouseReport(column: 1, row: 1, event: event)
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_MOUSE), mouse: report) == nil)
        #expect(KeyDecoder.key(for: report) == nil)
    }

    @Test func aMouseCodeWithoutAReportIsNoKey() {
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_MOUSE), mouse: nil) == nil)
    }

    private static let cursesStates: [(mmask_t, MouseReport.Event)] = [
        (opscope_button1_pressed(), .press(button: 1)), (opscope_button1_clicked(), .press(button: 1)),
        (opscope_button4_pressed(), .wheelUp), (opscope_button5_pressed(), .wheelDown),
        (opscope_button1_released(), .release), (opscope_report_mouse_position(), .motion), (0, .other),
    ]

    @Test(arguments: cursesStates)
    func getmouseStatesBecomeEvents(state: mmask_t, event: MouseReport.Event) {
        #expect(MouseReport(column: 4, row: 5, buttonState: state) == MouseReport(column: 4, row: 5, event: event))
    }

    /// xterm's button byte (SGR's first number; X10's first byte less 32).
    private static let xtermButtons: [(Int, Bool, MouseReport.Event)] = [
        (0, false, .press(button: 1)), (1, false, .press(button: 2)), (2, false, .press(button: 3)),
        (3, false, .release), (0, true, .release), (2, true, .release),
        (4, false, .press(button: 1)), (16, false, .press(button: 1)),  // Shift, Ctrl: still a press
        (64, false, .wheelUp), (65, false, .wheelDown), (66, false, .other), (67, false, .other),
        (32, false, .motion), (35, false, .motion), (96, false, .motion), (128, false, .other),
    ]

    @Test(arguments: xtermButtons)
    func xtermButtonBytesBecomeEvents(code: Int, released: Bool, event: MouseReport.Event) {
        #expect(MouseReport(column: 0, row: 0, xtermButton: code, released: released).event == event)
    }

    @Test func theMaskAsksForPressesAndTheWheelNeverForMotion() {
        let mask = TerminalSession.mouseMask
        #expect(mask & opscope_button1_pressed() != 0)
        #expect(mask & opscope_button4_pressed() != 0 && mask & opscope_button5_pressed() != 0)
        #expect(mask & opscope_report_mouse_position() == 0)
        #expect(mask & opscope_all_released() == 0)
    }
}

/// Mouse reports that reach the program as characters (the format ncurses
/// does not decode for this terminal type, or a report split by the escape
/// delay) are found and taken out of the keys.
@Suite struct MouseReportScannerTests {
    /// Feeds `text` one character at a time, then ends the input.
    static func scan(_ text: String, end: Bool = true, scanner: inout MouseReportScanner) -> [MouseReportScanner.Item] {
        var items: [MouseReportScanner.Item] = []
        for scalar in text.unicodeScalars { items += scanner.feed(.character(scalar.value)) }
        if end { items += scanner.endOfInput() }
        return items
    }

    static func scan(_ text: String) -> [MouseReportScanner.Item] {
        var scanner = MouseReportScanner()
        return scan(text, scanner: &scanner)
    }

    static func chars(_ text: String) -> [MouseReportScanner.Item] {
        text.unicodeScalars.map { .input(.character($0.value)) }
    }

    static func mouse(_ column: Int, _ row: Int, _ event: MouseReport.Event) -> MouseReportScanner.Item {
        .mouse(MouseReport(column: column, row: row, event: event))
    }

    private static let reports: [(String, [MouseReportScanner.Item])] = [
        ("\u{1B}[<0;3;8M\u{1B}[<0;3;8m", [mouse(2, 7, .press(button: 1)), mouse(2, 7, .release)]),
        ("\u{1B}[<64;120;40M", [mouse(119, 39, .wheelUp)]),
        ("\u{1B}[<65;1;1M", [mouse(0, 0, .wheelDown)]),
        ("\u{1B}[<2;10;5M\u{1B}[<35;11;5M", [mouse(9, 4, .press(button: 3)), mouse(10, 4, .motion)]),
        ("\u{1B}[M #(\u{1B}[M##(", [mouse(2, 7, .press(button: 1)), mouse(2, 7, .release)]),
        ("\u{1B}[Ma%'", [mouse(4, 6, .wheelDown)]),
        // The SGR tail after ncurses already returned the Esc (a split report).
        ("[<0;3;8m", [mouse(2, 7, .release)]),
        // Keys around a report keep their order.
        ("q\u{1B}[<0;3;8Mj", chars("q") + [mouse(2, 7, .press(button: 1))] + chars("j")),
    ]

    @Test(arguments: reports)
    func reportsInEitherFormatAreFound(text: String, items: [MouseReportScanner.Item]) {
        #expect(Self.scan(text) == items)
    }

    private static let notReports = [
        "q", "<", "0", "[", "\u{1B}", "\u{1B}x", "\u{1B}[1;5A", "\u{1B}[<0;3;8x", "\u{1B}[<;3;8M",
        "\u{1B}[<0;3M", "\u{1B}[<0;3;8;9M", "\u{1B}[<123456;1;1M", "[x", "[<a", "\u{1B}\u{1B}q",
    ]

    @Test(arguments: notReports)
    func otherCharactersComeOutUnchangedAndInOrder(text: String) {
        #expect(Self.scan(text) == Self.chars(text))
    }

    @Test func aReportSplitAcrossReadsIsHeldUntilItsEnd() {
        var scanner = MouseReportScanner()
        #expect(Self.scan("\u{1B}[<0;3", scanner: &scanner).isEmpty)
        #expect(scanner.isHolding)
        #expect(Self.scan(";8M", scanner: &scanner) == [Self.mouse(2, 7, .press(button: 1))])
        #expect(Self.scan("\u{1B}[", scanner: &scanner).isEmpty)
        #expect(Self.scan("M #(", scanner: &scanner) == [Self.mouse(2, 7, .press(button: 1))])
        #expect(!scanner.isHolding)
    }

    @Test func aLoneEscapeIsTheEscKeyAtOnce() {
        var scanner = MouseReportScanner()
        #expect(scanner.feed(.character(27)).isEmpty)
        #expect(scanner.endOfInput() == [.input(.character(27))])
        #expect(!scanner.isHolding)
    }

    @Test func aFunctionKeyEndsAHeldStart() {
        var scanner = MouseReportScanner()
        _ = Self.scan("\u{1B}[<1", end: false, scanner: &scanner)
        let up = RawInput(status: KEY_CODE_YES, code: UInt32(KEY_UP))
        #expect(scanner.feed(up) == Self.chars("\u{1B}[<1") + [.input(up)])
    }

    /// Whatever a terminal sends for the mouse, in either format, the keys
    /// that come out are clicks and wheel notches only: never a character,
    /// Esc or an unknown key (the user's "unknown key m").
    @Test func noMouseReportEverBecomesAKey() {
        var sequences: [String] = []
        for button in [0, 1, 2, 3, 32, 35, 64, 65, 66] {
            for (column, row) in [(0, 0), (2, 7), (93, 30)] {
                let x10 =
                    "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + column)))
                    + String(UnicodeScalar(UInt8(33 + row)))
                sequences += [
                    x10, "\u{1B}[<\(button);\(column + 1);\(row + 1)M", "\u{1B}[<\(button);\(column + 1);\(row + 1)m",
                ]
            }
        }
        var scanner = MouseReportScanner()
        let items = Self.scan(sequences.joined(), scanner: &scanner)
        let keys: [Key] = items.compactMap { item in
            switch item {
            case .mouse(let report): return KeyDecoder.key(for: report)
            case .input(let input): return KeyDecoder.decode(status: input.status, code: input.code)
            }
        }
        #expect(!keys.isEmpty)
        for key in keys {
            switch key {
            case .mouse, .wheel: continue
            default: Issue.record("a mouse report became the key \(key)")
            }
        }
        #expect(items.count == sequences.count)
    }
}

@Suite struct ColorPairsTests {
    @Test func pairsAreAllocatedLazilyAndReused() {
        var pairs = ColorPairs(capacity: 256)
        #expect(pairs.pair(foreground: .default, background: .default) == (0, false))
        #expect(pairs.pair(foreground: .red, background: .default) == (1, true))
        #expect(pairs.pair(foreground: .green, background: .black) == (2, true))
        #expect(pairs.pair(foreground: .red, background: .default) == (1, false))
        #expect(pairs.count == 2)
    }

    @Test func exhaustedPairsFallBackToPairZero() {
        var pairs = ColorPairs(capacity: 3)
        #expect(pairs.pair(foreground: .red, background: .default).number == 1)
        #expect(pairs.pair(foreground: .blue, background: .default).number == 2)
        #expect(pairs.pair(foreground: .cyan, background: .default) == (0, false))
        #expect(pairs.pair(foreground: .blue, background: .default) == (2, false))
    }

    @Test func paletteMapsToCursesColors() {
        #expect(ColorPairs.cursesColor(.default) == -1)
        #expect(ColorPairs.cursesColor(.black) == Int16(COLOR_BLACK))
        #expect(ColorPairs.cursesColor(.red) == Int16(COLOR_RED))
        #expect(ColorPairs.cursesColor(.white) == Int16(COLOR_WHITE))
    }

    @Test func noColorIsHonoured() {
        #expect(TerminalOptions.colorsAllowed(noColorFlag: false, environment: [:]))
        #expect(!TerminalOptions.colorsAllowed(noColorFlag: true, environment: [:]))
        #expect(!TerminalOptions.colorsAllowed(noColorFlag: false, environment: ["NO_COLOR": "1"]))
        #expect(TerminalOptions.colorsAllowed(noColorFlag: false, environment: ["NO_COLOR": ""]))
    }
}
