import Testing
import TextKit

@Suite struct WidthTests {
    @Test(arguments: [
        ("abc", 3), ("", 0), ("中文", 4), ("한국어", 6), ("ｶ", 1), ("Ａ", 2),
        ("e\u{301}", 1), ("🚀", 2), ("naïve", 5), ("✓", 1), ("가\u{11A8}", 2),
    ])
    func displayWidthCountsCells(text: String, width: Int) {
        #expect(displayWidth(text) == width)
    }

    @Test(arguments: [
        ("hello world", 8, "…", "hello w…"),
        ("hello", 5, "…", "hello"),
        ("hello", 0, "…", ""),
        ("hello", -3, "…", ""),
        ("hello world", 8, "...", "hello..."),
        ("hello", 2, "...", "he"),
        ("中文字", 4, "…", "中…"),
        ("中文字", 5, "…", "中文…"),
        ("ab中文", 4, "…", "ab…"),
    ])
    func truncateFitsTheWidth(text: String, width: Int, ellipsis: String, expected: String) {
        let result = truncate(text, toWidth: width, ellipsis: ellipsis)
        #expect(result == expected)
        #expect(displayWidth(result) <= max(0, width))
    }
}
