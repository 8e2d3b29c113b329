import Board
import CommandSupport
import Foundation
import Grading
import RunEvents
import RunFormats
import ScenarioKit
import TextKit

/// One trace's output: the event stream in its format, then the report.
///
/// Stopped by a signal, it writes what it has (complete lines; the chrome
/// export closed so that it stays JSON; the timeline drawn so far) and
/// exits with 128 + the signal's number (`interrupt`).
@MainActor
final class TraceWriter {
    private let format: TraceCommand.Format
    private let countsExpectations: Bool
    private let width: Int
    private let formatter: EventFormatter
    private let encoder: JSONLineEncoder?
    private var chrome: ChromeTraceEncoder?
    private var lanes: TimelineLanes?
    private var judge: ExpectationJudge
    let output: TraceOutput
    /// On a terminal, what a quiet run waits for (standard error).
    var waitLine: TraceWaitLine?
    /// The scenario time of the last event written.
    private(set) var lastTime = 0.0

    init(
        scenario: Scenario, format: TraceCommand.Format, countsExpectations: Bool, width: Int,
        header: JSONLineEncoder.Header?, output: TraceOutput
    ) {
        self.format = format
        self.countsExpectations = countsExpectations
        self.width = width
        self.output = output
        formatter = EventFormatter(scenario: scenario)
        encoder = format == .jsonl ? JSONLineEncoder(scenario: scenario) : nil
        chrome = format == .chrome ? ChromeTraceEncoder(scenario: scenario) : nil
        lanes = format == .timeline ? TimelineLanes(scenario: scenario) : nil
        judge = ExpectationJudge(scenario: scenario)
        let textHeader = format == .text ? formatter.textHeader + "\n" : nil
        output.append { out in
            if let textHeader { out.append(textHeader) }
            chrome?.appendHeader(to: &out.bytes)
            if format == .jsonl, let header { JSONLineEncoder.appendHeader(header, to: &out.bytes) }
        }
    }

    func write(_ batch: [LifecycleEvent]) {
        waitLine?.record(batch)
        output.append { out in
            for event in batch {
                judge.record(event)
                if let encoder {
                    encoder.append(event, to: &out.bytes)
                } else if chrome != nil {
                    chrome!.append(event, to: &out.bytes)
                } else if lanes != nil {
                    lanes!.record(event)
                } else {
                    out.append(formatter.text(event))
                    out.bytes.append(UInt8(ascii: "\n"))
                }
                out.flushIfFull()
            }
        }
        if let last = batch.last { lastTime = last.time }
    }

    /// Writes what follows the stream and exits with the trace's status.
    func finish() -> Never {
        waitLine?.stop()
        let report = TraceReport(judge: judge, formatter: formatter, countsExpectations: countsExpectations)
        let failure = output.finish { out in
            if let lanes {
                out.append(TimelineText.render(lanes, width: width))
                out.append(TimelineText.fitted(report.text, width: width))
            } else if format == .text {
                out.append(report.text)
            } else {
                chrome?.appendFooter(to: &out.bytes)
            }
        }
        if format == .jsonl || format == .chrome { StandardError.write(report.text) }
        exitAfterWriting(failure, status: report.exitStatus)
    }

    /// The trace was stopped by `signal`: writes what it has, says so, and
    /// exits with `status`. The run did not end, so nothing is judged.
    func interrupt(_ signal: String, status: Int32) -> Never {
        let when = Spelling.seconds(lastTime)
        waitLine?.stop()
        let line =
            "\nrun stopped by \(signal) (its last notification at \(when)): it did not end, and its expectations "
            + "were not judged\n"
        let failure = output.finish { out in
            switch format {
            case .timeline:
                if let lanes { out.append(TimelineText.render(lanes, width: width)) }
                out.append(line)
            case .text: out.append(line)
            case .chrome: chrome?.appendFooter(to: &out.bytes)
            case .jsonl: break
            }
        }
        if format == .jsonl || format == .chrome {
            StandardError.write(
                "opscope: trace stopped by \(signal) (its last notification at \(when)): the notifications so far "
                    + "were written; the run did not end\n")
        }
        exitAfterWriting(failure, status: status)
    }

    private func exitAfterWriting(_ failure: String?, status: Int32) -> Never {
        if let failure {
            StandardError.write("opscope: error: could not write the trace to standard output: \(failure)\n")
            exit(ExitStatus.failed)
        }
        exit(status)
    }
}
