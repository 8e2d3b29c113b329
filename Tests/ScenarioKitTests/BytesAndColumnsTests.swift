import Testing

@testable import ScenarioKit

/// Raw bytes that are not clean UTF-8, and the column rule (Unicode
/// scalars; one ill-formed byte is one column).
@Suite struct BytesAndColumnsTests {
    func read(bytes: [UInt8]) -> ParseResult {
        ScenarioReader.read(SourceFile(path: "bytes.ops", bytes: bytes))
    }

    @Test func invalidByteIsReportedAtItsColumnAndTheFileStillParses() {
        let bytes = Array("op a work 1s\nop b ".utf8) + [0xFF] + Array(" work 1s\nop c work 1s after b".utf8)
        let result = read(bytes: bytes)
        #expect(describeAll(result) == ["2:6 error: invalid UTF-8 byte 0xFF | a scenario file must be UTF-8 text"])
        #expect(result.scenario == nil)
    }

    @Test func nulByteIsReported() {
        let bytes = Array("op a".utf8) + [0] + Array(" work 1s".utf8)
        #expect(
            describeAll(read(bytes: bytes)) == ["1:5 error: NUL byte in source | a scenario file must be UTF-8 text"])
    }

    @Test func aRunOfBadBytesIsOneDiagnosticButSeparateRunsAreTwo() {
        let bytes =
            Array("op a work 1s # ".utf8) + [0xC3, 0x28, 0xFE, 0xFE] + Array("\nnote \"x".utf8) + [0x80, 0x00]
            + Array("\"".utf8)
        // 0xC3 lacks its continuation byte (0x28 is '('), then 0xFE 0xFE is
        // one run; in the string 0x80 0x00 is one run.
        #expect(
            describeAll(read(bytes: bytes)) == [
                "1:16 error: invalid UTF-8 byte 0xC3 | a scenario file must be UTF-8 text",
                "1:18 error: invalid UTF-8 byte 0xFE | a scenario file must be UTF-8 text",
                "2:8 error: invalid UTF-8 byte 0x80 | a scenario file must be UTF-8 text",
            ])
    }

    @Test(arguments: [
        // Overlong "/", a UTF-16 surrogate, a value above U+10FFFF, a lone continuation byte.
        [UInt8]([0xC0, 0xAF]), [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80],
    ])
    func illFormedSequencesAreRejected(_ sequence: [UInt8]) {
        let result = read(bytes: Array("note \"".utf8) + sequence + Array("\"".utf8))
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.location == Loc(line: 1, column: 7))
        #expect(result.diagnostics.first?.message.hasPrefix("invalid UTF-8 byte 0x") == true)
    }

    @Test func columnsCountUnicodeScalarsNotBytes() {
        // 한국어 is 9 UTF-8 bytes but 3 columns.
        #expect(
            describeAll(ScenarioKitTests.read("note \"한국어\" x")) == ["1:12 error: unexpected 'x' in 'note' statement"])
        #expect(describeAll(ScenarioKitTests.read("title \"café\" @")) == ["1:14 error: unexpected character '@'"])
        #expect(
            describeAll(ScenarioKitTests.read("op a work 1s # 注意\nop b work 1s après")) == [
                "2:17 error: unexpected character 'è'"
            ])
    }

    @Test func anInvalidByteCountsAsOneColumn() {
        let bytes = Array("note \"".utf8) + [0xFF, 0xFF] + Array("é\" x".utf8)
        // n o t e ␠ " ␦ ␦ é " ␠ x → x is column 12.
        #expect(
            describeAll(read(bytes: bytes)) == [
                "1:7 error: invalid UTF-8 byte 0xFF | a scenario file must be UTF-8 text",
                "1:12 error: unexpected 'x' in 'note' statement",
            ])
    }

    @Test func stringsKeepNonASCIIText() throws {
        let scenario = try #require(clean("title \"下载 → 解析\"\nop a work 1s"))
        #expect(scenario.title == "下载 → 解析")
    }

    @Test func windowsLineEndingsAreAccepted() throws {
        let scenario = try #require(clean("queue q max 2\r\nop a on q work 1s\r\n"))
        #expect(scenario.queues[0].cap == .limit(2))
    }
}
