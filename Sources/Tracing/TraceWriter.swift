import Board
import CommandSupport
import Grading
import RunEvents
import RunFormats
import ScenarioKit
import TextKit

/// One trace's output: the event stream in its format, then the report,
/// and the status the trace ends with.
///
/// The stream is not kept: each batch is written into the output's buffer
/// and let go of, and the expectations are judged as the events pass
/// (`ExpectationJudge`), so a trace of a million operations holds what the
/// engine holds, not its millions of events. Standard output and standard
/// error are given (`TraceOutput`, `MessagePrinter`): a test hands it
/// memory. Stopped by a signal, it writes what it has (complete lines;
/// the chrome export closed so that it stays JSON; the timeline drawn so
/// far) and returns the signal's status (`interrupt`).
package final class TraceWriter: EventReader {
    /// The readers of each batch, in order: the verdicts, then the stream.
    private let readers = EventFanOut<TraceWriter>().reading(\.judge).reading(\.stream)

    private var stream: StreamReader
    private var judge: ExpectationJudge
    private let countsExpectations: Bool
    private let verbose: Bool
    private let formatter: EventFormatter
    private let messages: MessagePrinter
    /// The scenario time of the last event written.
    package private(set) var lastTime = 0.0

    /// Writes the format's header at once. With `countsExpectations` false
    /// (a speed faster than the file promises them), a failed expectation
    /// is shown but does not decide the status. `verbose`: a stall's report
    /// adds each stuck operation with its own reason.
    package init(
        scenario: Scenario, format: TraceFormat, countsExpectations: Bool = true, width: Int = 100,
        header: JSONLineEncoder.Header? = nil, output: TraceOutput, messages: MessagePrinter = .standardError,
        verbose: Bool = false
    ) {
        self.countsExpectations = countsExpectations
        self.verbose = verbose
        self.messages = messages
        formatter = EventFormatter(scenario: scenario)
        judge = ExpectationJudge(scenario: scenario)
        stream = StreamReader(stream: TraceStream(format, scenario: scenario, width: width), output: output)
        stream.appendHeader(header)
    }

    package func read(_ batch: [LifecycleEvent]) {
        var writer = self
        readers.read(batch, into: &writer)
        if let last = batch.last { lastTime = last.time }
    }

    /// Writes what follows the stream (the report, in the stream or on
    /// standard error) and returns the trace's status.
    package func finish() -> ExitStatus {
        let report = TraceReport(
            judge: judge, formatter: formatter, countsExpectations: countsExpectations, verbose: verbose)
        let facts = judge.facts
        let blocks = facts.mainThreadWaits.filter {
            $0.seconds(until: facts.endTime) > MainThreadWaitSpan.reportThreshold
        }
        .map {
            MainThreadBlockRecord(
                action: $0.action, began: $0.began, returned: $0.returned, seconds: $0.seconds(until: facts.endTime),
                line: $0.actionIndex.flatMap { i in
                    facts.scenario.actions.indices.contains(i) ? facts.scenario.actions[i].location.line : nil
                })
        }
        let failure = stream.output.finish { out in
            stream.stream.appendEnd(report: report.text, blocks: blocks, to: &out)
        }
        if stream.stream.reportsOnStandardError { messages.write(report.text) }
        return status(afterWriting: failure, report.status)
    }

    /// The trace was stopped by `signal`: writes what it has, says so, and
    /// returns `status`. The run did not end, so nothing is judged.
    package func interrupt(_ signal: String, status: ExitStatus) -> ExitStatus {
        let when = Spelling.seconds(lastTime)
        let line =
            "\nrun stopped by \(signal) (its last notification at \(when)): it did not end, and its expectations "
            + "were not judged\n"
        let failure = stream.output.finish { out in stream.stream.appendInterrupted(line: line, to: &out) }
        if stream.stream.reportsOnStandardError {
            messages.note(
                "trace stopped by \(signal) (its last notification at \(when)): the notifications so far were "
                    + "written; the run did not end")
        }
        return self.status(afterWriting: failure, status)
    }

    private func status(afterWriting failure: String?, _ status: ExitStatus) -> ExitStatus {
        guard let failure else { return status }
        messages.error(TraceOutput.cannotWrite(failure))
        return .failed
    }
}

/// The stream and the output it is written to, as one reader: each batch
/// is appended under the output's lock, whole.
private struct StreamReader: EventReader {
    var stream: TraceStream
    let output: TraceOutput

    mutating func appendHeader(_ header: JSONLineEncoder.Header?) {
        output.append { out in stream.appendHeader(header, to: &out) }
    }

    mutating func read(_ batch: [LifecycleEvent]) {
        output.append { out in stream.append(batch, to: &out) }
    }
}
