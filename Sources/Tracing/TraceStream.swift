import Board
import CommandSupport
import RunEvents
import RunFormats
import ScenarioKit

/// What `opscope trace --format` writes.
package enum TraceFormat: String, Sendable, CaseIterable {
    case text, jsonl, chrome, timeline, dot, mermaid
}

/// A trace's stream in its format, and what that format keeps while the
/// events pass: one case per format, so that each holds exactly what it
/// needs.
enum TraceStream {
    /// One aligned line per event, under a header line.
    case text(EventFormatter)
    /// A recording: its header, then one JSON object per event.
    case jsonl(JSONLineEncoder)
    /// The Trace Event Format, closed by a footer.
    case chrome(ChromeTraceEncoder)
    /// The lanes, drawn `width` columns wide once the run is over.
    case timeline(TimelineLanes, width: Int)
    /// The dependency graph with each operation's end, written once the
    /// run is over (Graphviz or Mermaid).
    case graph(GraphExport)

    init(_ format: TraceFormat, scenario: Scenario, width: Int) {
        switch format {
        case .text: self = .text(EventFormatter(scenario: scenario))
        case .jsonl: self = .jsonl(JSONLineEncoder(scenario: scenario))
        case .chrome: self = .chrome(ChromeTraceEncoder(scenario: scenario))
        case .timeline: self = .timeline(TimelineLanes(scenario: scenario), width: width)
        case .dot: self = .graph(GraphExport(.dot, scenario: scenario))
        case .mermaid: self = .graph(GraphExport(.mermaid, scenario: scenario))
        }
    }

    /// The report goes to standard error, so that standard output stays
    /// the format's own (JSON).
    var reportsOnStandardError: Bool {
        switch self {
        case .jsonl, .chrome, .graph: true
        case .text, .timeline: false
        }
    }

    /// What comes before the first event; `header` is a recording's (it
    /// holds the scenario's whole text: written, not kept).
    mutating func appendHeader(_ header: JSONLineEncoder.Header?, to out: inout OutputBuffer) {
        switch consume self {
        case .text(let formatter):
            if header?.dispatchesObserved == false {
                out.append("note: " + LifecycleEvent.unobservedDispatchesNote + "\n")
            }
            out.append(formatter.textHeader + "\n")
            self = .text(formatter)
        case .jsonl(var encoder):
            if let header {
                JSONLineEncoder.appendHeader(header, to: &out.bytes)
                encoder.writesCauses = header.version >= JSONLineEncoder.causesVersion
            }
            self = .jsonl(encoder)
        case .chrome(var encoder):
            encoder.appendHeader(to: &out.bytes)
            self = .chrome(encoder)
        case .timeline(let lanes, let width):
            // Its `▒` (dispatched, no thread yet) needs the moment of
            // dispatch: without it, none is drawn, and the reader is told.
            if header?.dispatchesObserved == false {
                out.append("note: " + LifecycleEvent.unobservedDispatchesNote + "\n")
            }
            self = .timeline(lanes, width: width)
        case .graph(let graph):
            self = .graph(graph)
        }
    }

    /// Writes (or, for the timeline, keeps) `batch`, writing the buffer
    /// out whenever it is full. `self` is consumed and made again, so that
    /// the encoder and the lanes are changed in place, never copied.
    mutating func append(_ batch: [LifecycleEvent], to out: inout OutputBuffer) {
        switch consume self {
        case .text(let formatter):
            for event in batch {
                out.append(formatter.text(event))
                out.bytes.append(UInt8(ascii: "\n"))
                out.flushIfFull()
            }
            self = .text(formatter)
        case .jsonl(var encoder):
            for event in batch {
                encoder.append(event, to: &out.bytes)
                out.flushIfFull()
            }
            self = .jsonl(encoder)
        case .chrome(var encoder):
            for event in batch {
                encoder.append(event, to: &out.bytes)
                out.flushIfFull()
            }
            self = .chrome(encoder)
        case .timeline(var lanes, let width):
            lanes.read(batch)
            self = .timeline(lanes, width: width)
        case .graph(var graph):
            graph.read(batch)
            self = .graph(graph)
        }
    }

    /// What follows the stream once the run is over: the report, where it
    /// goes in the stream (`report`, the text as a trace shows it); in
    /// JSON Lines, a `main-blocked` line per block of the main thread.
    func appendEnd(report: String, blocks: [MainThreadBlockRecord], to out: inout OutputBuffer) {
        switch self {
        case .text:
            out.append(report)
        case .timeline(let lanes, let width):
            out.append(TimelineText.render(lanes, width: width))
            out.append(TimelineText.fitted(report, width: width))
        case .chrome(let encoder):
            encoder.appendFooter(to: &out.bytes)
        case .graph(let graph):
            out.append(graph.render())
        case .jsonl(let encoder):
            for block in blocks { encoder.appendMainThreadBlock(block, to: &out.bytes) }
        }
    }

    /// What follows the stream when a signal stopped the run: `line` says
    /// so where the stream is text.
    func appendInterrupted(line: String, to out: inout OutputBuffer) {
        switch self {
        case .timeline(let lanes, let width):
            out.append(TimelineText.render(lanes, width: width))
            out.append(line)
        case .text:
            out.append(line)
        case .chrome(let encoder):
            encoder.appendFooter(to: &out.bytes)
        case .graph(let graph):
            out.append(graph.render(interrupted: true))
        case .jsonl:
            break
        }
    }
}
