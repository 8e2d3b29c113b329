import Board
import ScenarioKit

/// `F`: which operations the board, the views over time and the log show.
///
/// Typed as terms separated by spaces: `queue:NAME`, `state:COLUMN`
/// (`pending`, `ready`, `executing`, `finished`, `cancelled`, or the start
/// of one: `exec`), `text:WORDS` or a bare word (a part of the name, any
/// case). Terms of one kind are alternatives (`state:ready state:executing`:
/// either); terms of different kinds must all hold (`queue:net state:ready`:
/// net's ready ones). A value never holds a space.
///
/// The queue and text terms are settled when the filter is made (a mask
/// over the scenario's operations); the state terms are asked of the board
/// shown, so a card comes and goes as it changes column. Views ask
/// `admits` or, for a whole frame, `shown(on:)`.
public struct OperationFilter: Sendable, Hashable {
    /// The terms as the user typed them, spaces made single.
    public let text: String
    /// The operations the queue and text terms admit.
    private let fixed: OperationMask
    /// Indices into `Phase.columns`; empty: any column.
    private let columns: Set<Int>

    /// A filter from `text` over `scenario`'s operations; nil for an empty
    /// text (no filter); a `FilterError` naming the first bad term.
    public static func parse(_ text: String, scenario: Scenario) throws(FilterError) -> OperationFilter? {
        let terms = text.split(separator: " ").map(String.init)
        guard !terms.isEmpty else { return nil }
        var queues: Set<QueueID> = []
        var columns: Set<Int> = []
        var words: [String] = []
        for term in terms {
            let (key, value) = split(term)
            guard !value.isEmpty else { throw .missingValue(term: term) }
            switch key {
            case "queue", "q":
                guard let queue = scenario.queues.firstIndex(where: { $0.name.lowercased() == value.lowercased() })
                else { throw .unknownQueue(value, known: scenario.queues.map(\.name)) }
                queues.insert(QueueID(queue))
            case "state", "s":
                let names = Phase.columns.map(\.rawValue)
                let lower = value.lowercased()
                let found =
                    names.firstIndex(of: lower).map { [$0] } ?? names.indices.filter { names[$0].hasPrefix(lower) }
                guard found.count == 1 else { throw .unknownState(value) }
                columns.insert(found[0])
            case "text", "t", nil:
                words.append(value)
            default:
                throw .unknownKey(term: term)
            }
        }
        var fixed = OperationMask(capacity: scenario.operations.count)
        let search = words.isEmpty ? nil : NameSearch(scenario)
        let named = search.map { search in Set(words.flatMap { search.matches($0) }) }
        // One started by hand is in no queue: no queue term admits it.
        let byHand = queues.isEmpty ? [] : scenario.startedByHand
        for (i, spec) in scenario.operations.enumerated() {
            let op = OperationID(i)
            guard queues.isEmpty || (queues.contains(spec.queue) && !byHand.contains(op)) else { continue }
            guard named?.contains(op) ?? true else { continue }
            fixed.insert(op)
        }
        return OperationFilter(text: terms.joined(separator: " "), fixed: fixed, columns: columns)
    }

    /// `queue:net` → ("queue", "net"); `thumb` → (nil, "thumb"); the key lower-cased.
    private static func split(_ term: String) -> (key: String?, value: String) {
        guard let colon = term.firstIndex(of: ":") else { return (nil, term) }
        return (term[..<colon].lowercased(), String(term[term.index(after: colon)...]))
    }

    /// Whether `op` shows on `board`: its queue and name pass, and its
    /// column (an operation not added yet sits in Pending) is one asked for.
    public func admits(_ op: OperationID, board: BoardState) -> Bool {
        guard fixed.contains(op) else { return false }
        guard !columns.isEmpty, board.scenario.contains(op) else { return true }
        return columns.contains(Self.column(of: board[operation: op].phase))
    }

    /// The operations that show on `board`, all at once.
    public func shown(on board: BoardState) -> OperationMask {
        guard !columns.isEmpty else { return fixed }
        var mask = fixed
        for i in 0..<min(fixed.capacity, board.scenario.operations.count) where fixed.contains(OperationID(i)) {
            if !columns.contains(Self.column(of: board[operation: OperationID(i)].phase)) {
                mask.remove(OperationID(i))
            }
        }
        return mask
    }

    /// How many of `board`'s operations the filter hides there.
    public func hiddenCount(on board: BoardState) -> Int {
        board.scenario.operations.count - shown(on: board).count
    }

    /// The column index (`Phase.columns`) a card of `phase` sits in.
    static func column(of phase: Phase) -> Int {
        Phase.columns.firstIndex(of: phase == .notAdded ? .pending : phase) ?? 0
    }
}

/// Why a filter's text was refused: shown in its prompt, which stays open
/// to mend it. Lower-case, no trailing period.
public enum FilterError: Error, Sendable, Hashable {
    case missingValue(term: String)
    case unknownKey(term: String)
    case unknownQueue(String, known: [String])
    case unknownState(String)

    public var message: String {
        switch self {
        case .missingValue(let term):
            return "'\(term)' needs a value after the colon"
        case .unknownKey(let term):
            return "'\(term)' is not a term: use queue:NAME, state:COLUMN, text:WORD or a bare word"
        case .unknownQueue(let name, let known):
            let list = known.isEmpty ? "this scenario has none" : "the queues are " + known.joined(separator: ", ")
            return "no queue is named '\(name)': \(list)"
        case .unknownState(let value):
            return "'\(value)' is not a column: pending, ready, executing, finished or cancelled"
        }
    }
}
