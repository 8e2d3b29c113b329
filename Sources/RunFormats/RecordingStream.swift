import RunEvents
import ScenarioKit

/// A recording read as it is written, a line at a time: what a board reads
/// from the child opscope that runs the user's classes live.
///
/// The same reading as `RecordingDecoder`'s, line for line: the header
/// first, then each event checked (its keys, its names, the order of `seq`
/// and `t`, and that it is a possible next step of its operation's life).
/// The first line that cannot be read ends the stream: `problem` says
/// which and why, and every later line is refused with it.
public struct RecordingStream {
    public private(set) var header: JSONLineEncoder.Header?
    /// The scenario of the header's `source`, once the header was read.
    public private(set) var scenario: Scenario?
    /// The first line that could not be read, if one could not.
    public private(set) var problem: RecordingProblem?
    private var reader: EventLineReader?
    private var lineNumber = 0

    public init() {}

    /// Reads the next line (without its newline): nil for the header (and
    /// for a summary after the end), the event otherwise. Throws the stream's problem, this line's or an
    /// earlier one's.
    public mutating func read(_ line: [UInt8]) throws(RecordingProblem) -> LifecycleEvent? {
        if let problem { throw problem }
        lineNumber += 1
        let number = lineNumber
        let result: Result<LifecycleEvent?, RecordingProblem> = line.withUnsafeBufferPointer { bytes in
            Result { () throws(RecordingProblem) -> LifecycleEvent? in
                guard var reader else {
                    let (header, scenario) = try RecordingDecoder.readHeader(
                        bytes, Lines.Line(number: number, start: 0, end: bytes.count, hasNewline: true))
                    self.header = header
                    self.scenario = scenario
                    self.reader = EventLineReader(bytes: bytes, scenario: scenario)
                    return nil
                }
                reader.json = JSONReader(bytes: bytes)
                defer { self.reader = reader }
                do throws(LineError) {
                    // After the end, a trace's summaries of the main
                    // thread's waits: read, and not events.
                    if reader.hasEnded {
                        _ = try reader.mainThreadBlock(0, bytes.count)
                        return nil
                    }
                    return try reader.event(0, bytes.count, line: number)
                } catch {
                    throw RecordingProblem(line: number, column: error.offset.map { $0 + 1 }, message: error.message)
                }
            }
        }
        do {
            return try result.get()
        } catch {
            problem = error
            throw error
        }
    }
}
