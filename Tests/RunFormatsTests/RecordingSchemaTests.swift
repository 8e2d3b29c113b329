import EventFixtures
import RunEvents
import ScenarioKit
import Testing

@testable import RunFormats

/// The schema is one table (`RecordingSchema.swift`) for both sides: the
/// encoder writes, for each kind of line, the keys its kind lists, in their
/// order, and between all the lines every one of them; the decoder refuses
/// any other. A key added to one side only fails here.
@Suite struct RecordingSchemaTests {
    /// Lines of every kind with every key: the fixture's recording and the
    /// pinned lines of `JSONLineEncoderTests`.
    static let lines: [[UInt8]] = {
        var bytes = RecordingFixture.recording(RecordingFixture.events)
        var encoder = JSONLineEncoder(scenario: JSONLineEncoderTests.scenario)
        for (event, _) in JSONLineEncoderTests.jsonCases { encoder.append(event, to: &bytes) }
        return bytes.split(separator: UInt8(ascii: "\n")).map(Array.init)
    }()

    /// A line's keys, in the order written.
    static func keys(of line: [UInt8]) -> [String] {
        line.withUnsafeBufferPointer { buffer in
            let reader = JSONReader(bytes: buffer)
            var members: [JSONMember] = []
            do {
                try reader.readObject(from: 0, to: buffer.count, into: &members)
            } catch {
                Issue.record("not a JSON object: \(String(decoding: line, as: UTF8.self))")
            }
            return members.map { reader.string($0.key) }
        }
    }

    /// The kind a line's `kind` names.
    static func kind(of line: [UInt8]) -> LineKind? {
        let text = String(decoding: line, as: UTF8.self)
        return LineKind.allCases.first { text.contains(Schema.word(inMember: $0.member).quotedKind) }
    }

    @Test func theHeaderHasTheHeaderFieldsInTheirOrder() {
        #expect(Self.keys(of: Self.lines[0]) == HeaderField.allCases.filter { !$0.isOptional }.map(\.name))
    }

    /// A run that observed no moment of dispatch says so last, and reads back so.
    @Test func aHeaderWithoutObservedDispatchesEndsWithThemAndReadsBack() throws {
        var header = JSONLineEncoder.Header(
            opscope: "0", language: 1, path: "a.ops", source: "queue q\nop a work 1ms\n")
        header.dispatchesObserved = false
        var out: [UInt8] = []
        JSONLineEncoder.appendHeader(header, to: &out)
        let line = Array(out.dropLast())
        #expect(Self.keys(of: line) == HeaderField.allCases.map(\.name))
        #expect(String(decoding: line, as: UTF8.self).hasSuffix(#","dispatches":"at-start"}"#))
        let read = try RecordingDecoder.decode(out)
        #expect(!read.header.dispatchesObserved)
        header.dispatchesObserved = true
        out = []
        JSONLineEncoder.appendHeader(header, to: &out)
        #expect(try RecordingDecoder.decode(out).header.dispatchesObserved)
        let text = String(decoding: line, as: UTF8.self)
        let wrong = Array((text.dropLast(#""at-start"}"#.count) + #""later"}"#).utf8) + [10]
        #expect(throws: RecordingProblem.self) { try RecordingDecoder.decode(wrong) }
    }

    @Test func everyLineHasOnlyItsKindsKeysInTheirOrderAndEveryKeyIsWritten() throws {
        var written: [LineKind: Set<String>] = [:]
        for line in Self.lines.dropFirst() {
            let kind = try #require(Self.kind(of: line), "\(String(decoding: line, as: UTF8.self))")
            let keys = Self.keys(of: line)
            let listed = kind.keys.map(\.name)
            // In the kind's order: each key after the one before it.
            var position = 0
            for key in keys {
                guard let found = listed[position...].firstIndex(of: key) else {
                    Issue.record("'\(key)' out of \(kind.name)'s keys \(listed) or order: \(keys)")
                    break
                }
                position = found + 1
            }
            written[kind, default: []].formUnion(keys)
        }
        for kind in LineKind.allCases {
            #expect(written[kind] == Set(kind.keys.map(\.name)), "\(kind.name) lines")
        }
    }

    @Test func everyFieldIsAKeyOfSomeKindAndEveryNameIsItsOwn() {
        #expect(Set(LineKind.allCases.flatMap(\.keys)) == Set(Field.allCases))
        #expect(Set(Field.allCases.map(\.name)).count == Field.allCases.count)
        #expect(Set(LineKind.allCases.map(\.name)).count == LineKind.allCases.count)
        // A key is spelt as its case: the messages of the decoder name it so.
        for field in Field.allCases { #expect(field.name == String(describing: field)) }
        for kind in LineKind.allCases { #expect(kind.name == String(describing: kind)) }
    }

    /// For every kind, a key of another kind added to one of its lines:
    /// the decoder refuses it by the same table.
    @Test(arguments: LineKind.allCases)
    func theDecoderRefusesAKeyItsKindDoesNotList(_ kind: LineKind) throws {
        let index = try #require(Self.lines.indices.dropFirst().first { Self.kind(of: Self.lines[$0]) == kind })
        // Only the fixture's own lines decode against its scenario.
        guard index < RecordingFixture.events.count + 1 else { return }
        for field in Field.allCases where !kind.keys.contains(field) {
            var line = Self.lines[index]
            line.removeLast()  // "}"
            line += Array(#","\#(field.name)":1}"#.utf8)
            let bytes = (Self.lines[..<index] + [line]).joined(separator: [UInt8(ascii: "\n")]) + [10]
            let recording = try RecordingDecoder.decode(Array(bytes))
            #expect(
                recording.problem?.message == "'\(field.name)' is not a key of \(kind.name) lines",
                "\(kind.name) with \(field.name): \(recording.problem?.description ?? "read")")
        }
    }
}

extension String {
    /// `"kind":"op"`.
    fileprivate var quotedKind: String { #""kind":"\#(self)""# }
}
