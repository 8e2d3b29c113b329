import RunEvents
import ScenarioKit
import TextKit

/// A run's timeline as plain text, for scripts, READMEs and teaching
/// notes (`opscope trace FILE --format timeline [--width N]`):
///
/// ```
/// timeline · 0s to 1.105s · one column = 13ms
///                0s        0.2s      0.4s      0.6s      0.8s      1s
///                ├─────────┼─────────┼─────────┼─────────┼─────────┼───
/// net (cap: system decides)
///   running      11111111111111111111111111111111111111111111111111111
///   fetch        █████████████████████████████████████████████✓
///   parse        ░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░█████████✓
/// ```
///
/// Each column covers one step of scenario time and shows the most
/// advanced state the operation was in during it: `·` pending (added, not
/// ready), `░` ready (waiting for the queue), `▒` dispatched by the queue
/// and waiting for a thread (from its `dispatched` event), `█` executing;
/// then `✓` where
/// it finished, `⊘` where it finished cancelled. A queue's `running` row
/// gives the most of its operations executing at once in that column: a
/// digit, or, when a column counts more than 9, the whole row to scale in
/// eighth blocks (`RunningScale`), the queue's line saying what `█` is.
/// Actions and captions are marked `▲` on their own row and listed below,
/// each action with who did it (`cancel polite (at 300ms, line 12)`).
public enum TimelineText {
    public static func render(_ timeline: TimelineLanes, width requested: Int) -> String {
        let scenario = timeline.scenario
        let names = scenario.operations.map(\.name)
        let nameWidth = min(max(names.map(displayWidth).max() ?? 0, 7), 24) + 4
        let plot = max(requested - nameWidth, 10)
        let width = max(requested, 40)
        // A pure function may be handed any time: past the largest double
        // it is drawn as the largest, and no time is drawn as none.
        let last = timeline.endTime.isNaN ? 0 : min(timeline.endTime, .greatestFiniteMagnitude)
        let end = max(last, 0.001)
        let step = end / Double(plot)
        var lines: [String] = []
        let span = "timeline · 0s to \(label(last))"
        let scale = "one column = " + stepText(step)
        if displayWidth(span + " · " + scale) <= width {
            lines.append(span + " · " + scale)
        } else {
            lines += [truncate(span, toWidth: width), scale]
        }
        let (labels, ruler) = axis(plot: plot, step: step)
        lines.append(pad("", nameWidth) + labels)
        lines.append(pad("", nameWidth) + ruler)
        var drawsDispatched = false
        let byHand = scenario.startedByHand
        for (q, queue) in scenario.queues.enumerated() {
            let members = scenario.operations.indices.filter {
                scenario.operations[$0].queue.index == q && !byHand.contains(OperationID($0))
            }
            guard !members.isEmpty else { continue }
            let cap = timeline.queueSteps[q].last?.cap ?? -1
            let capText = cap < 0 ? "cap: system decides" : "cap \(cap)"
            let running = RunningScale.glyphs(runningTops(timeline.queueSteps[q], plot: plot, step: step))
            let scale = running.most.map { " · running to scale, █ = \($0) at once" } ?? ""
            lines.append(truncate("\(queue.name) (\(capText))\(scale)", toWidth: width))
            lines.append(pad("  running", nameWidth) + String(running.glyphs))
            for i in members {
                let name = truncate(names[i], toWidth: nameWidth - 3)
                let lane = laneRow(timeline.lanes[i], plot: plot, step: step)
                drawsDispatched = drawsDispatched || lane.contains("▒")
                lines.append(pad("  " + name, nameWidth) + lane)
            }
        }
        if !byHand.isEmpty {
            // In no queue: no cap, no running row; the main thread starts each.
            lines.append(truncate("by hand (in no queue: the main thread calls start())", toWidth: width))
            for op in byHand.sorted() where scenario.contains(op) {
                let name = truncate(names[op.index], toWidth: nameWidth - 3)
                lines.append(pad("  " + name, nameWidth) + laneRow(timeline.lanes[op.index], plot: plot, step: step))
            }
        }
        if !timeline.marks.isEmpty {
            var row = [Character](repeating: " ", count: plot)
            for mark in timeline.marks { row[column(mark.time, step: step, plot: plot)] = "▲" }
            lines.append(pad("marks", nameWidth) + String(row))
            for mark in timeline.marks {
                let line = "  ▲ \(Spelling.seconds(mark.time))  \(mark.text)"
                // A caption is cut to the width; an action is wrapped, so
                // that who did it is never cut off.
                if mark.origin == nil {
                    lines.append(truncate(line, toWidth: width))
                } else {
                    lines += wrapped(line, width: width, indent: 12)
                }
            }
        }
        var legend = ["· pending", "░ ready", "█ executing", "✓ finished", "⊘ finished cancelled"]
        if drawsDispatched { legend.insert("▒ dispatched, no thread yet", at: 2) }
        // The legend within the width, wrapped between its entries.
        var row = ""
        for entry in legend {
            if !row.isEmpty && displayWidth(row + "  " + entry) > width {
                lines.append(row)
                row = ""
            }
            row += (row.isEmpty ? "" : "  ") + entry
        }
        lines.append(row)
        return lines.map { trimmedRight($0) }.joined(separator: "\n") + "\n"
    }

    // MARK: - Rows

    static func column(_ t: Double, step: Double, plot: Int) -> Int {
        guard t > 0, step > 0 else { return 0 }
        return min(Int(saturating: t / step), plot - 1)
    }

    /// The lane of one operation.
    static func laneRow(_ lane: TimelineLanes.Lane, plot: Int, step: Double) -> String {
        var row = [Character](repeating: " ", count: plot)
        guard let begins = lane.begins else { return "" }
        let first = column(begins, step: step, plot: plot)
        // A finish drawn before the add (times out of order) ends at the add.
        let last = max(first, lane.finished.map { column($0, step: step, plot: plot) } ?? plot - 1)
        for c in first...last {
            let from = Double(c) * step
            let to = from + step
            var mark: Character = "·"
            if let ready = lane.ready, ready < to { mark = "░" }
            if let dispatched = lane.dispatched, dispatched < to { mark = "▒" }
            if let started = lane.started, started < to, (lane.stopped ?? .infinity) >= from { mark = "█" }
            row[c] = mark
        }
        if lane.finished != nil { row[last] = lane.cancelled != nil ? "⊘" : "✓" }
        return String(row)
    }

    /// The most of a queue's operations executing at once, per column.
    static func runningTops(_ steps: [TimelineLanes.QueueStep], plot: Int, step: Double) -> [Int] {
        var most = [Int](repeating: 0, count: plot)
        var current = 0
        var c = 0
        var index = 0
        while c < plot {
            let to = Double(c + 1) * step
            var top = current
            while index < steps.count && steps[index].time < to {
                current = steps[index].executing
                top = max(top, current)
                index += 1
            }
            most[c] = top
            c += 1
        }
        // A count below zero is no count a queue had: drawn as none
        // (`RunningScale`), not as a minus sign that would take two columns.
        return most
    }

    /// Tick labels and a ruler, a tick at a round time every ten columns or
    /// more; a label only where it does not run into the one before.
    static func axis(plot: Int, step: Double) -> (String, String) {
        let interval = tickInterval(atLeast: step * 10)
        var labels = [Character](repeating: " ", count: plot)
        var ruler = [Character](repeating: "─", count: plot)
        var free = 0  // the first label column still free
        var t = 0.0
        while true {
            let c = Int(saturating: (t / step).rounded())
            guard c >= 0, c < plot else { break }
            ruler[c] = c == 0 ? "├" : "┼"
            let text = Array(label(t))
            if c >= free && c + text.count <= plot {
                for (k, ch) in text.enumerated() { labels[c + k] = ch }
                free = c + text.count + 1
            }
            // Past the largest double the next tick is no later: done.
            let next = t + interval
            guard next > t else { break }
            t = next
        }
        return (String(labels), String(ruler))
    }

    /// The round interval (1, 2 or 5 times a power of ten, from a
    /// millisecond on) of at least `minimum` seconds; `minimum` itself when
    /// no round one is that long.
    static func tickInterval(atLeast minimum: Double) -> Double {
        var scale = 0.001
        while scale.isFinite {
            for base in [1.0, 2, 5] where base * scale >= minimum { return base * scale }
            scale *= 10
        }
        return minimum
    }

    /// One column's length: to the millisecond from 10ms on, to the
    /// microsecond below (`13ms`, `2.5ms`, `0.1ms`).
    public static func stepText(_ step: Double) -> String {
        if !(step < 0.01) { return Spelling.duration(seconds: step) }
        return Spelling.duration(.microseconds(Int64(saturating: (step * 1_000_000).rounded())))
    }

    /// `0s`, `0.2s`, `1.25s`: the seconds without trailing zeros.
    static func label(_ t: Double) -> String {
        var text = Spelling.secondsNumber(t)
        if text.contains(".") {
            while text.last == "0" { text.removeLast() }
            if text.last == "." { text.removeLast() }
        }
        return text + "s"
    }

    /// Each line of `text` within `width` cells: broken at spaces, the rest
    /// of a line indented two cells past its own indent (the report that
    /// follows a timeline keeps to the timeline's width).
    public static func fitted(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let indent = line.prefix { $0 == " " }.count
            return wrapped(String(line), width: width, indent: indent + 2).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` cells, broken at spaces (never
    /// inside `line 12`), each after the first indented by `indent` (a word
    /// wider than a line is cut).
    static func wrapped(_ text: String, width: Int, indent: Int) -> [String] {
        var words: [String] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if words.last == "line", word.first?.isNumber == true {
                words[words.count - 1] += " " + word
            } else {
                words.append(String(word))
            }
        }
        var lines: [String] = []
        var line: String?
        let margin = String(repeating: " ", count: indent)
        for word in words {
            guard let current = line else {
                line = word
                continue
            }
            if displayWidth(current + " " + word) <= width || current.allSatisfy({ $0 == " " }) {
                line = current + " " + word
            } else {
                lines.append(current)
                line = margin + word
            }
        }
        lines.append(line ?? "")
        return lines.map { truncate($0, toWidth: width) }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - displayWidth(text)))
    }

    static func trimmedRight(_ text: String) -> String {
        var scalars = Substring(text)
        while scalars.last == " " { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
