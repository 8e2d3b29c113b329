import RunEvents
import ScenarioKit

extension JSONLineEncoder {
    /// What a recording is and who wrote it: its first line.
    public struct Header: Sendable {
        public var opscope: String
        public var language: Int
        public var path: String
        public var source: String
        /// The recording format's version: this opscope's when it writes a
        /// run; a recording read back keeps its own, so that one of
        /// version 1 (no `dispatched` lines, none claimed) is written again
        /// as version 1.
        public var version: Int
        /// The run observed the moment of each dispatch (its state reader
        /// was on: `ScenarioRun.observesDispatches`). false: each
        /// `dispatched` line came as its operation started, and the header
        /// says so (`"dispatches":"at-start"`).
        public var dispatchesObserved: Bool

        public init(
            opscope: String, language: Int, path: String, source: String,
            version: Int = JSONLineEncoder.recordingVersion, dispatchesObserved: Bool = true
        ) {
            self.opscope = opscope
            self.language = language
            self.path = path
            self.source = source
            self.version = version
            self.dispatchesObserved = dispatchesObserved
        }
    }

    /// The name and version of the recording format, in every header.
    public static let recordingFormat = "opscope-recording"
    /// 2: `dispatched` lines; 3: `causes` in a stall and a stalled end.
    /// Recordings of versions 1 and 2 are still read (and written again
    /// as they were).
    public static let recordingVersion = 3

    /// The first version whose stalls carry `causes`.
    public static let causesVersion = 3

    /// The first line of a recording: the scenario's whole text, so that a
    /// recording stands alone (SCENARIO-LANGUAGE.md, "Recordings"). Its
    /// keys are `HeaderField`'s, in their order.
    public static func appendHeader(_ header: Header, to out: inout [UInt8]) {
        for field in HeaderField.allCases {
            if field == .dispatches && header.dispatchesObserved { continue }
            out.appendLiteral(field.member)
            switch field {
            case .kind: out.appendLiteral(HeaderField.headerKind)
            case .format: JSONBytes.appendQuoted(recordingFormat, to: &out)
            case .version: JSONBytes.appendInt(header.version, to: &out)
            case .opscope: JSONBytes.appendQuoted(header.opscope, to: &out)
            case .language: JSONBytes.appendInt(header.language, to: &out)
            case .path: JSONBytes.appendQuoted(header.path, to: &out)
            case .source: JSONBytes.appendQuoted(header.source, to: &out)
            case .dispatches: JSONBytes.appendQuoted(HeaderField.dispatchesAtStart, to: &out)
            }
        }
        out.appendLiteral("}\n")
    }

    /// A whole recording of `events`, header first, as `trace --format
    /// jsonl` writes it (for a run kept in memory: the interface's `W`),
    /// with `mainThreadBlocks` after the events (a trace's summary lines).
    public static func recording(
        _ header: Header, of scenario: Scenario, events: some Sequence<LifecycleEvent>,
        mainThreadBlocks: [MainThreadBlockRecord] = []
    ) -> [UInt8] {
        var out: [UInt8] = []
        appendHeader(header, to: &out)
        var encoder = JSONLineEncoder(scenario: scenario)
        encoder.writesCauses = header.version >= causesVersion
        for event in events { encoder.append(event, to: &out) }
        for block in mainThreadBlocks { encoder.appendMainThreadBlock(block, to: &out) }
        return out
    }
}
