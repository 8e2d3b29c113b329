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

    @Test func aPrimaryPressIsAMouseKey() {
        let press = MouseReport(column: 12, row: 3, isPrimaryPress: true)
        #expect(
            KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_MOUSE), mouse: press)
                == .mouse(column: 12, row: 3))
    }

    @Test func otherMouseEventsAreIgnored() {
        let release = MouseReport(column: 1, row: 1, isPrimaryPress: false)
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_MOUSE), mouse: release) == nil)
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_MOUSE), mouse: nil) == nil)
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
