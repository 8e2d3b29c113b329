import Testing

@testable import TextKit

/// Text from a file, on its way to a terminal: what a terminal would act
/// on is shown, never emitted.
@Suite struct TerminalTextTests {
    @Test(
        "every control character is a visible escape; everything else stays",
        arguments: [
            ("plain", "plain"), ("zürich 中 🙂", "zürich 中 🙂"), ("a\nb\tc\rd\0", "a\\nb\\tc\\rd\\0"),
            ("\u{1B}]0;PWNED\u{07}\u{1B}[2J", "\\u{1B}]0;PWNED\\u{7}\\u{1B}[2J"), ("del\u{7F}", "del\\u{7F}"),
            ("csi\u{9B}31m", "csi\\u{9B}31m"), ("\u{202E}evil\u{2066}x\u{2069}", "\\u{202E}evil\\u{2066}x\\u{2069}"),
            ("line\u{2028}sep", "line\\u{2028}sep"),
        ])
    func escaped(_ text: String, _ shown: String) {
        #expect(TerminalText.escaped(text) == shown)
        #expect(!TerminalText.escaped(text).unicodeScalars.contains(where: TerminalText.isControl))
    }

    @Test("invalid UTF-8 shows its bytes; a valid sequence after it is kept")
    func invalidBytes() {
        #expect(TerminalText.escaped(bytes: Array("ok é".utf8)) == "ok é")
        #expect(TerminalText.escaped(bytes: [0x61, 0xFF, 0xC3, 0xA9, 0xC3, 0x1B, 0x62]) == "a\\xFFé\\xC3\\u{1B}b")
        // Overlong, surrogate, truncated: each byte shown.
        #expect(TerminalText.escaped(bytes: [0xC0, 0xAF]) == "\\xC0\\xAF")
        #expect(TerminalText.escaped(bytes: [0xED, 0xA0, 0x80]) == "\\xED\\xA0\\x80")
        #expect(TerminalText.escaped(bytes: [0xE2, 0x80]) == "\\xE2\\x80")
        // A C1 control encoded in UTF-8 is a control like any other.
        #expect(TerminalText.escaped(bytes: [0xC2, 0x9B]) == "\\u{9B}")
    }

    @Test("a report keeps its newlines and tabs and nothing else")
    func plainLines() {
        #expect(TerminalText.plainLines("a\nb\tc\n") == "a\nb\tc\n")
        #expect(TerminalText.plainLines("a\u{1B}[31m\nb\rc\u{202E}") == "a\\u{1B}[31m\nb\\rc\\u{202E}")
    }

    @Test("a bidi control is no zero-width mark: it counts as a cell, as the ? that replaces it on the board")
    func bidiWidth() {
        #expect(CharacterWidth.of(Unicode.Scalar(0x202E)!) == nil)
        #expect(CharacterWidth.of(Unicode.Scalar(0x200D)!) == 0)
    }
}
