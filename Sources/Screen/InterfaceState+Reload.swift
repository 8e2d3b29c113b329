import ScenarioKit

extension InterfaceState {
    /// The state for the first frame of a run of `new`, a watched file
    /// saved again, after a run of `old`: what a person was looking at is
    /// still there where it still exists.
    ///
    /// Kept as `r` keeps them (`restarted()`): the panes, the board area
    /// (board, timeline or threads), the expanded inspector, the notes'
    /// choice; also the timeline's window, and the diff overlay (it then
    /// compares the new run with the one before). Carried by name, since
    /// an edit renumbers what follows it: the selected operation, the
    /// selected queue, the log's filter. An operation gone from the file
    /// gives the selection to its nearest neighbour in the old file that
    /// is still there, the next one first (the one that took its place
    /// in the list), then the one before; with none left, the board's
    /// first card (`reconcile`). A queue gone gives way to the selected
    /// operation's queue; a filter on a gone operation is dropped. The
    /// history goes back to live (a new run), the scroll offsets to the
    /// top, and the other overlays close: the screen shows the new run.
    public func carried(from old: Scenario, to new: Scenario) -> InterfaceState {
        var fresh = restarted()
        // Most of what is carried is an operation or two: each is looked
        // for where it was, then along the new file; a table of every new
        // name (a second at millions of operations, on the way to showing
        // a save) is made only once many were looked for.
        var newIDs: [String: OperationID]?
        var searches = 0
        func id(named name: String, near guess: Int) -> OperationID? {
            if guess < new.operations.count, new.operations[guess].name == name { return OperationID(guess) }
            if newIDs == nil, searches < 8 {
                searches += 1
                return new.operations.firstIndex { $0.name == name }.map(OperationID.init)
            }
            if newIDs == nil {
                var table: [String: OperationID] = [:]
                table.reserveCapacity(new.operations.count)
                for (index, spec) in new.operations.enumerated() where table[spec.name] == nil {
                    table[spec.name] = OperationID(index)
                }
                newIDs = table
            }
            return newIDs?[name]
        }
        func same(_ op: OperationID) -> OperationID? {
            old.contains(op) ? id(named: old[operation: op].name, near: op.index) : nil
        }
        if let selected = selectedOperation, old.contains(selected) {
            let after = old.operations.indices.suffix(from: selected.index).lazy.compactMap { same(OperationID($0)) }
            let before = old.operations.indices.prefix(upTo: selected.index).reversed().lazy
                .compactMap { same(OperationID($0)) }
            fresh.selectedOperation = after.first ?? before.first
        } else {
            fresh.selectedOperation = nil
        }
        fresh.selectedQueue = selectedQueue.flatMap { queue in
            old.contains(queue) ? new.queueID(named: old[queue: queue].name) : nil
        }
        if fresh.selectedQueue == nil, let op = fresh.selectedOperation {
            fresh.selectedQueue = new[operation: op].queue
        }
        fresh.logFilter = logFilter.flatMap(same)
        fresh.graphFolds = Set(graphFolds.compactMap(same))
        // The filter's terms, read again over the new file (dropped if a queue went).
        fresh.filter.active = filter.active.flatMap { try? OperationFilter.parse($0.text, scenario: new) }
        fresh.timelineView.window = timelineView.window
        if overlay == .diff { fresh.overlay = .diff }
        return fresh
    }
}
