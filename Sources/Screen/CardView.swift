import Board
import ScenarioKit

/// One operation card, `height` (3) rows:
///
///     fetch          ✗     name (bold); ✗ when cancel was requested while it runs
///     net high/UT work     queue, priority bucket[/QoS], kind
///     ███████░░░░  64%     progress while executing, else a short status
///
/// A card the queue dispatched but no worker thread runs yet ("no thread
/// yet", ENGINE-NOTES "The thread pool ramps slowly") and a card not added
/// yet are drawn dim.
enum CardView {
    static let height = 3

    /// The three text rows of `card`, each at most `width` cells, and
    /// whether the card is dim.
    static func rows(
        _ card: OperationCard, board: BoardState, now: Double, width: Int, glyphs: GlyphSet
    ) -> (rows: [String], dim: Bool) {
        let spec = board.scenario[operation: card.id]
        let marked = card.cancelRequestedWhileExecuting && card.phase == .executing
        let nameRoom = marked ? width - 2 : width
        var name = truncate(card.name, toWidth: nameRoom, ellipsis: glyphs.ellipsis)
        if marked { name = fit(name, width - 1) + glyphs.cross }

        var detail = board.scenario[queue: card.queue].name + " "
        detail += card.isBarrier ? "" : Wording.priorityShort(card.effectivePriority)
        if let qos = spec.qos, !card.isBarrier { detail += "/" + Wording.qosShort(qos) }
        detail += (card.isBarrier ? "" : " ") + kindText(card, spec)

        let (status, dim) = statusRow(card, board: board, now: now, width: width, glyphs: glyphs)
        return (
            [name, truncate(detail, toWidth: width, ellipsis: glyphs.ellipsis), status], dim
        )
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
            let fraction = board.progress(of: card.id, now: now) ?? 0
            let percent = String(Int(fraction * 100)) + "%"
            let barWidth = max(0, width - 5)
            return (glyphs.progressBar(fraction, width: barWidth) + fit("", 5 - percent.count) + percent, false)
        case .finished:
            return ("\(glyphs.check) " + Wording.seconds(card.finishedAt ?? 0), false)
        case .cancelled:
            if card.wasSkipped { return ("\(glyphs.cross) skipped", false) }
            return ("\(glyphs.cross) " + Wording.seconds(card.finishedAt ?? 0), false)
        case .notAdded:
            return ("not added yet", true)
        case .pending, .ready:
            let reasons = board.whyNotRunning(card.id)
            guard let first = reasons.first else { return ("", false) }
            return (shortReason(first, card: card, board: board), first == .dispatchedWaitingForThread)
        }
    }

    /// A reason in a card's few cells; the inspector says it in full.
    static func shortReason(_ reason: NotRunningReason, card: OperationCard, board: BoardState) -> String {
        switch reason {
        case .notAdded: return "not added yet"
        case .waitingFor(let ids):
            let first = board.scenario[operation: ids[0]].name
            return ids.count > 1 ? "after \(first) +\(ids.count - 1)" : "after \(first)"
        case .queueSuspended: return "queue suspended"
        case .queueAtCap: return "queue at cap"
        case .behindHigherPriority(let count, _, _): return "behind \(count)"
        case .dispatchedWaitingForThread:
            return board[queue: card.queue].isMain ? "main thread busy" : "no thread yet"
        }
    }

    /// Draws `card` into the first `height` rows of `rect`.
    static func draw(
        _ card: OperationCard, board: BoardState, selected: Bool, frame: FrameInput, theme: Theme,
        into grid: inout CellGrid, rect: Rect
    ) {
        let (rows, dim) = rows(card, board: board, now: frame.now, width: rect.width, glyphs: frame.glyphs)
        var base = dim ? theme.dim : theme.plain
        if selected { base = base.reversed }
        let area = Rect(x: rect.x, y: rect.y, width: rect.width, height: min(height, rect.height))
        grid.fill(area, with: .blank(base))
        for (i, text) in rows.enumerated() where i < area.height {
            let at = Position(column: rect.x, row: rect.y + i)
            var style = base
            if i == 0 { style = style.bolded }
            if i == 2 && card.phase == .executing && !selected { style = theme.bar }
            grid.write(text, at: at, style: style, clippedTo: area)
        }
        if card.cancelRequestedWhileExecuting && card.phase == .executing && rect.width > 2 {
            var mark = theme.cancelMark
            if selected { mark = mark.reversed }
            grid.write(
                frame.glyphs.cross, at: Position(column: rect.maxX - 1, row: rect.y), style: mark, clippedTo: area)
        }
    }
}
