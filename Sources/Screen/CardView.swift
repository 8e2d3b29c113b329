import Board
import RunEvents
import ScenarioKit
import TextKit

/// One operation card, `ScreenLayout.cardHeight` (3 or 4) rows:
///
///     fetch          ⊘     name (bold); ⊘ once cancel() set isCancelled and it has not finished
///     work high/UT net     kind first (it must survive a narrow column), priority bucket[/QoS], queue
///     ███████░░░░  64%     progress while executing, else a short status
///     0.601→1.201s 600ms on #2   (wide terminals) start, end, duration, the thread that ran it
///
/// A card the queue dispatched but no worker thread runs yet ("no thread
/// yet": the thread pool grows about one thread a second while all its
/// threads are blocked) and a card not added
/// yet are drawn dim.
enum CardView {
    /// The text rows of `card`, each at most `width` cells, and whether
    /// the card is dim.
    ///
    /// `declared`: a question waits for its answer (predict mode), so no
    /// card has been added yet and each third row says what the file
    /// declares instead (`1.6s after fetch`): its length and what it waits
    /// for, which a question on a clock needs on the board.
    static func rows(
        _ card: OperationCard, board: BoardState, now: Double, width: Int, height: Int = 3, glyphs: GlyphSet,
        declared: Bool = false
    ) -> (rows: [String], dim: Bool) {
        let spec = board.scenario[operation: card.id]
        let marked = showsCancelMark(card)
        var name = truncate(card.name, toWidth: marked ? width - 2 : width, ellipsis: glyphs.ellipsis)
        if marked { name = fit(name, width - 1) + glyphs.cancelled }
        let detail = detailText(card, spec: spec, board: board, width: width, glyphs: glyphs)
        var (status, dim) = statusRow(card, board: board, now: now, width: width, glyphs: glyphs)
        if declared, card.phase == .notAdded { status = declaration(spec, in: board.scenario) }
        var rows = [name, detail, truncate(status, toWidth: width, ellipsis: glyphs.ellipsis)]
        if height >= 4 {
            rows.append(truncate(timesText(card, glyphs: glyphs), toWidth: width, ellipsis: glyphs.ellipsis))
        }
        return (rows, dim)
    }

    /// Cancelled but not finished: running on (cancel only set the flag)
    /// or waiting in Pending or Ready for its queue to start it.
    static func showsCancelMark(_ card: OperationCard) -> Bool {
        card.isCancelled && [.pending, .ready, .executing].contains(card.phase)
    }

    /// The second row: the longest form that fits — full priority and QoS
    /// names, then the short ones (`vhigh`, `IN`; the help lists them),
    /// then without the queue.
    static func detailText(
        _ card: OperationCard, spec: OperationSpec, board: BoardState, width: Int, glyphs: GlyphSet
    ) -> String {
        let kind = kindText(card, spec)
        if card.startedByHand {
            // In no queue: its priority means nothing, where it runs does.
            return truncate("\(kind) by hand", toWidth: width, ellipsis: glyphs.ellipsis)
        }
        let queue = board.scenario[queue: card.queue].name
        if card.isBarrier { return truncate("\(kind) \(queue)", toWidth: width, ellipsis: glyphs.ellipsis) }
        let long = card.effectivePriority.rawValue + (spec.qos.map { "/" + $0.rawValue } ?? "")
        let short = Wording.priorityShort(card.effectivePriority) + (spec.qos.map { "/" + Wording.qosShort($0) } ?? "")
        let forms = ["\(kind) \(long) \(queue)", "\(kind) \(short) \(queue)", "\(kind) \(short)"]
        let chosen = forms.first { displayWidth($0) <= width } ?? forms[2]
        return truncate(chosen, toWidth: width, ellipsis: glyphs.ellipsis)
    }

    /// `blocks 2/3` while a blocks operation runs; the kind otherwise.
    static func kindText(_ card: OperationCard, _ spec: OperationSpec) -> String {
        if case .blocks(let ds) = spec.body, card.phase == .executing {
            return "blocks \(min(card.blocksStarted, ds.count))/\(ds.count)"
        }
        return Wording.kind(spec.body)
    }

    static func statusRow(
        _ card: OperationCard, board: BoardState, now: Double, width: Int, glyphs: GlyphSet
    ) -> (String, Bool) {
        switch card.phase {
        case .executing:
            if card.stranded { return ("start() returned, unfinished", true) }
            if !card.isExecuting { return ("isFinished not yet", true) }
            guard let fraction = board.progress(of: card.id, now: now) else {
                // Your class: no share of a known length, only how long it has run.
                let since = card.startedAt.map { Spelling.seconds(max(0, now - $0)) } ?? ""
                return ("running " + since, false)
            }
            let percent = String(Int(saturating: fraction * 100)) + "%"
            let barWidth = max(0, width - 5)
            return (glyphs.progressBar(fraction, width: barWidth) + fit("", 5 - percent.count) + percent, false)
        case .finished:
            return ("\(glyphs.check) " + Spelling.seconds(card.finishedAt ?? 0), false)
        case .cancelled:
            if card.wasSkipped { return ("\(glyphs.cancelled) skipped", false) }
            return ("\(glyphs.cancelled) " + Spelling.seconds(card.finishedAt ?? 0), false)
        case .notAdded where card.startedByHand:
            // What it waits for first, else its start() by hand to come.
            let first = board.whyNotRunning(card.id).first ?? .startsByHand
            return (shortReason(first, card: card, board: board), true)
        case .notAdded:
            return ("not added yet", true)
        case .pending, .ready:
            let reasons = board.whyNotRunning(card.id)
            guard let first = reasons.first else { return ("", false) }
            return (shortReason(first, card: card, board: board), first.isDispatched)
        }
    }

    /// `1.6s after fetch`, `3 x 400ms`, `1s, never finishes`: an
    /// operation as the file declares it, in a card's few cells.
    static func declaration(_ spec: OperationSpec, in scenario: Scenario) -> String {
        var text: String
        switch spec.body {
        case .blocks(let ds): text = "\(ds.count) x \(Spelling.duration(ds.first ?? .zero))"
        case .custom(let type): text = type
        default: text = Spelling.duration(spec.body.totalDuration)
        }
        if !spec.dependencies.isEmpty {
            text += " after " + spec.dependencies.map(scenario.opName).joined(separator: ", ")
        }
        return text
    }

    /// The fourth row of a wide card: when it ran and on which thread.
    static func timesText(_ card: OperationCard, glyphs: GlyphSet) -> String {
        let thread = card.thread.map { " on \($0)" } ?? ""
        switch card.phase {
        case .executing:
            return "from \(Spelling.seconds(card.startedAt ?? 0))" + thread
        case .finished, .cancelled:
            guard let started = card.startedAt, let ended = card.finishedAt else {
                return card.wasSkipped ? "never ran" : ""
            }
            return "\(Spelling.secondsNumber(started))\(glyphs.arrow)\(Spelling.seconds(ended))"
                + " \(Spelling.duration(seconds: ended - started))" + thread
        case .pending, .ready:
            return card.addedAt.map { "added at \(Spelling.seconds($0))" } ?? ""
        case .notAdded:
            return ""
        }
    }

    /// A reason in a card's few cells; the inspector says it in full.
    static func shortReason(_ reason: NotRunningReason, card: OperationCard, board: BoardState) -> String {
        switch reason {
        case .notAdded: return "not added yet"
        case .startsByHand: return HandStartText.short(card, board: board)
        case .waitingFor(let ids):
            let first = board.scenario[operation: ids[0]].name
            return ids.count > 1 ? "after \(first) +\(ids.count - 1)" : "after \(first)"
        case .queueSuspended: return "queue suspended"
        case .queueAtCap: return "queue at cap"
        case .behindHigherPriority(let count, _, _): return "behind \(count)"
        case .dispatchedWaitingForThread:
            return board[queue: card.queue].isMain ? "main thread busy" : "no thread yet"
        case .dispatchedBehindBarrier(let barrier):
            return "behind \(board[operation: barrier].name)"
        }
    }

    /// Draws `card` into the first rows of `rect`.
    static func draw(
        _ card: OperationCard, board: BoardState, selected: Bool, frame: FrameInput, height: Int, theme: Theme,
        into grid: inout CellGrid, rect: Rect
    ) {
        let (rows, dim) = rows(
            card, board: board, now: frame.now, width: rect.width, height: height, glyphs: frame.glyphs,
            declared: frame.predict?.hidesAnswers == true)
        var base = dim ? theme.dim : theme.plain
        if selected { base = base.reversed }
        let area = Rect(x: rect.x, y: rect.y, width: rect.width, height: min(height, rect.height))
        grid.fill(area, with: .blank(base))
        for (i, text) in rows.enumerated() where i < area.height {
            let at = Position(column: rect.x, row: rect.y + i)
            var style = base
            if i == 0 { style = style.bolded }
            if i == 2 && card.phase == .executing && !selected { style = theme.bar }
            if i == 3 && !selected { style = theme.dim }
            grid.write(text, at: at, style: style, clippedTo: area)
        }
        if showsCancelMark(card) && rect.width > 2 {
            var mark = theme.cancelMark
            if selected { mark = mark.reversed }
            grid.write(
                frame.glyphs.cancelled, at: Position(column: rect.maxX - 1, row: rect.y), style: mark,
                clippedTo: area)
        }
    }
}
