import RunEvents
import ScenarioKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A recording read back (`opscope trace --format jsonl`, read by
/// `opscope replay`): who wrote it, its scenario, and its events.
public struct Recording: Sendable {
    public var header: JSONLineEncoder.Header
    /// The scenario read from the header's `source`: the names of the
    /// events are resolved against it.
    public var scenario: Scenario
    /// Every event read, in file order.
    public var events: [LifecycleEvent]
    /// The first line that could not be read, if any: the events before it
    /// are kept, nothing after it is read.
    public var problem: RecordingProblem?
    /// The `main-blocked` summaries after the `end` line (a trace's), as
    /// written: what the `wait` lines before say, summed up.
    public var mainThreadBlocks: [MainThreadBlockRecord] = []

    public init(
        header: JSONLineEncoder.Header, scenario: Scenario, events: [LifecycleEvent], problem: RecordingProblem? = nil
    ) {
        self.header = header
        self.scenario = scenario
        self.events = events
        self.problem = problem
    }
}

/// Why a line of a recording could not be read.
public struct RecordingProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line of the file.
    public var line: Int
    /// 1-based column in UTF-8 bytes from the start of the line, where the
    /// problem has a place (JSON syntax, a value); nil for a key missing
    /// from the line, or a line as a whole.
    public var column: Int?
    /// Lower-case, no trailing period: `unknown operation 'fecth'`.
    public var message: String

    public init(line: Int, column: Int? = nil, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line 12, column 30: unknown operation 'fecth'`.
    public var description: String {
        if let column { return "line \(line), column \(column): \(message)" }
        return "line \(line): \(message)"
    }
}

/// Reads a recording (SCENARIO-LANGUAGE.md, "Reading a recording back")
/// into the scenario and the events it was written from.
///
/// One pass over the bytes: a line is found, its JSON checked and its
/// members taken as byte ranges (`JSONReader`), and its names resolved by
/// a table of the scenario's names, so that a line costs no allocation
/// beyond the strings an event keeps. Every index an event carries is one
/// the scenario has: a replay may use them without checking.
public enum RecordingDecoder {
    /// Fails only when nothing can be opened: an empty file, a first line
    /// that is not an opscope-recording header, an unsupported format
    /// version, or a header whose `source` has errors as a scenario. Any
    /// later bad line ends the reading there: `problem` says which line and
    /// why, and `events` holds what came before.
    public static func decode(_ bytes: [UInt8]) throws(RecordingProblem) -> Recording {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(RecordingProblem) in try decode(buffer) }
        }
        return try result.get()
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(RecordingProblem) -> Recording {
        var lines = Lines(bytes: bytes)
        guard let first = lines.next() else { throw RecordingProblem(line: 1, message: "the file is empty") }
        let (header, scenario) = try readHeader(bytes, first)
        var reader = EventLineReader(bytes: bytes, scenario: scenario)
        var events: [LifecycleEvent] = []
        // A line of a recording is about 100 bytes.
        events.reserveCapacity(bytes.count / 100)
        var problem: RecordingProblem?
        var mainThreadBlocks: [MainThreadBlockRecord] = []
        while let line = lines.next() {
            do throws(LineError) {
                if reader.hasEnded {
                    mainThreadBlocks.append(try reader.mainThreadBlock(line.start, line.end))
                } else {
                    events.append(try reader.event(line.start, line.end, line: line.number))
                }
            } catch {
                var message = error.message
                if error.atEnd && !line.hasNewline {
                    message = "the last line is cut short: " + message
                }
                let column = error.offset.map { $0 - line.start + 1 }
                problem = RecordingProblem(line: line.number, column: column, message: message)
                break
            }
        }
        var recording = Recording(header: header, scenario: scenario, events: events, problem: problem)
        recording.mainThreadBlocks = mainThreadBlocks
        return recording
    }

    /// The header line and the scenario of its `source`.
    static func readHeader(
        _ bytes: UnsafeBufferPointer<UInt8>, _ line: Lines.Line
    ) throws(RecordingProblem) -> (JSONLineEncoder.Header, Scenario) {
        let reader = JSONReader(bytes: bytes)
        let notHeader = "the first line is not an opscope recording's header"
        func problem(_ message: String, at value: JSONValue? = nil) -> RecordingProblem {
            RecordingProblem(line: 1, column: value.map { $0.start - line.start + 1 }, message: message)
        }
        var members: [JSONMember] = []
        do {
            try reader.readObject(from: line.start, to: line.end, into: &members)
        } catch {
            throw RecordingProblem(
                line: 1, column: error.offset - line.start + 1, message: "\(notHeader): \(error.message)")
        }
        var fields: [String: JSONValue] = [:]
        for member in members {
            let key = reader.string(member.key)
            guard fields[key] == nil else { throw problem("the header has '\(key)' twice", at: member.key) }
            fields[key] = member.value
        }
        func missing(_ key: String) -> RecordingProblem { problem("the header has no '\(key)'") }
        func text(_ field: HeaderField) throws(RecordingProblem) -> String {
            let key = field.name
            guard let value = fields[key] else { throw missing(key) }
            guard value.kind == .string else {
                throw problem("the header's '\(key)' must be a string, not \(value.kindText)", at: value)
            }
            return reader.string(value)
        }
        func int(_ field: HeaderField) throws(RecordingProblem) -> Int {
            let key = field.name
            guard let value = fields[key] else { throw missing(key) }
            guard value.kind == .integer, let n = reader.int(value) else {
                throw problem("the header's '\(key)' must be a whole number, not \(reader.rawText(value))", at: value)
            }
            return n
        }
        guard let kind = fields[HeaderField.kind.name], kind.kind == .string,
            reader.string(kind) == Schema.word(inMember: HeaderField.headerKind)
        else {
            throw problem("\(notHeader) (it has no \"kind\":\"header\")")
        }
        let format = try text(.format)
        guard format == JSONLineEncoder.recordingFormat else {
            throw problem("\(notHeader) (its format is '\(format)', not '\(JSONLineEncoder.recordingFormat)')")
        }
        let version = try int(.version)
        guard version >= 1 else {
            throw problem("recording format version \(version) does not exist", at: fields[HeaderField.version.name])
        }
        guard version <= JSONLineEncoder.recordingVersion else {
            throw problem(
                "recording format version \(version) is not supported: this opscope reads versions 1 to "
                    + "\(JSONLineEncoder.recordingVersion)", at: fields[HeaderField.version.name])
        }
        let known = Set(HeaderField.allCases.map(\.name))
        if let unknown = members.first(where: { !known.contains(reader.string($0.key)) }) {
            throw problem("unknown key '\(reader.string(unknown.key))' in the header", at: unknown.key)
        }
        var observed = true
        if fields[HeaderField.dispatches.name] != nil {
            let said = try text(.dispatches)
            guard said == HeaderField.dispatchesAtStart else {
                throw problem(
                    "the header's 'dispatches' must be \"\(HeaderField.dispatchesAtStart)\" (or absent), not \"\(said)\"",
                    at: fields[HeaderField.dispatches.name])
            }
            observed = false
        }
        let header = JSONLineEncoder.Header(
            opscope: try text(.opscope), language: try int(.language), path: try text(.path),
            source: try text(.source), version: version, dispatchesObserved: observed)
        // A recording runs nothing: the user's classes it names were run
        // when it was made (`class TYPE` is read as written).
        let result = ScenarioReader.read(SourceFile(path: header.path, text: header.source), ownCode: .accepted)
        guard let scenario = result.scenario, !result.hasErrors else {
            let first = result.diagnostics.first(where: \.isError)
            let said = first.map { ": \($0.location.line):\($0.location.column): \($0.message)" } ?? ""
            throw problem("the recording's scenario (its header's 'source') has errors\(said)")
        }
        return (header, scenario)
    }
}

/// The lines of a buffer, split at `\n`; a last line without one counts
/// when it is not empty.
struct Lines {
    struct Line {
        /// 1-based.
        var number: Int
        var start: Int
        /// Where the line's `\n` is, or the end of the buffer.
        var end: Int
        var hasNewline: Bool
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var number = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func next() -> Line? {
        guard position < bytes.count else { return nil }
        let start = position
        var end = bytes.count
        // memchr: a recording is mostly the search for its newlines.
        if let base = bytes.baseAddress, let found = memchr(base + start, 0x0A, bytes.count - start) {
            end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        number += 1
        position = end + 1
        return Line(number: number, start: start, end: end, hasNewline: end < bytes.count)
    }
}
