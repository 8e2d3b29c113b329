import RunEvents
import ScenarioKit

/// Something that follows a run's events in order, a batch at a time: the
/// board and its history, the lanes, an expectation judge, a trace's
/// stream.
///
/// A reader takes a batch whole, in its own loop, so a fan-out
/// (`EventFanOut`) costs one call per reader per batch, never one per
/// event through an existential: a batch may hold hundreds of thousands.
public protocol EventReader {
    mutating func read(_ batch: [LifecycleEvent])
}

/// Feeds each batch of a stream to the readers of a `Root` (a session, a
/// trace's writer), one after another in the order they were added: the
/// one place a stream is fanned out.
///
/// Readers are named by key paths to stored properties of `Root`, so each
/// is read into in place (a key path to a computed property would copy
/// the reader, and a reader holding a run's history would be copied
/// whole at every batch).
public struct EventFanOut<Root> {
    private var readers: [(inout Root, [LifecycleEvent]) -> Void] = []

    public init() {}

    /// This fan-out, and after its readers the one at `path`.
    public func reading<Reader: EventReader>(_ path: WritableKeyPath<Root, Reader>) -> Self {
        var fanOut = self
        fanOut.readers.append { root, batch in root[keyPath: path].read(batch) }
        return fanOut
    }

    /// Gives `batch` to each reader of `root`, in order.
    public func read(_ batch: [LifecycleEvent], into root: inout Root) {
        for reader in readers { reader(&root, batch) }
    }
}

/// An optional reader reads when it is there (a line shown only on a
/// terminal).
extension Optional: EventReader where Wrapped: EventReader {
    public mutating func read(_ batch: [LifecycleEvent]) { self?.read(batch) }
}

/// The lanes of the timeline and the thread view.
extension TimelineLanes: EventReader {
    public mutating func read(_ batch: [LifecycleEvent]) {
        for event in batch { record(event) }
    }
}

/// The live board and its history, read together: the history keeps what
/// each event changed on the board, so it must see the board right after
/// that event.
public struct LiveBoard: EventReader, Sendable {
    public private(set) var board: BoardState
    public private(set) var history: BoardHistory

    public init(scenario: Scenario) {
        board = BoardState(scenario: scenario)
        history = BoardHistory(scenario: scenario)
    }

    public mutating func read(_ batch: [LifecycleEvent]) {
        for event in batch {
            board.apply(event)
            history.append(event, boardAfter: board)
        }
    }
}
