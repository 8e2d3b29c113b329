/// A line of a teacher's script: text shown to the learner at a moment of
/// the run (`at TIME say "TEXT"`, `when OP MOMENT say "TEXT"`).
///
/// A caption does nothing to the queues: it is not an `Action` and never
/// appears in `Scenario.actions`. The interface shows it when the run
/// reaches it (in lesson mode the scenario clock pauses there until the
/// learner goes on); `opscope trace` prints it as an event of kind
/// `caption`.
public struct Caption: Sendable, Hashable {
    public enum Trigger: Sendable, Hashable {
        /// At this scenario time from the start of the run, after the timed
        /// actions of that time (whatever the order of the lines).
        case at(Duration)
        /// When this operation (or barrier) reaches this moment.
        case when(OperationID, CaptionMoment)
    }

    public var trigger: Trigger
    /// The text between the quotes, escapes resolved; never empty or blank.
    public var text: String
    /// The statement's first keyword (`at` or `when`).
    public var location: SourceLocation

    public init(trigger: Trigger, text: String, location: SourceLocation = SourceLocation(line: 0, column: 0)) {
        self.trigger = trigger
        self.text = text
        self.location = location
    }

    /// The text speaks of a dispatch: it has the word in any form
    /// ("dispatched", "dispatches", "dispatching", any case) or `▒`, the
    /// board's mark of an operation dispatched and waiting for a thread.
    /// What it says is seen only where the run observes the moment a queue
    /// dispatches (docs/SCENARIO-LANGUAGE.md, "Dispatches, read from
    /// Foundation's state"); a run that does not withholds it.
    public var claimsDispatches: Bool {
        text.lowercased().contains("dispatch") || text.contains("▒")
    }

    /// The scenario time of an `at` caption; nil for a `when` caption.
    public var time: Duration? {
        if case .at(let time) = trigger { return time }
        return nil
    }
}

/// The moment of an operation's life a `when` caption waits for; the raw
/// value is the language's word.
public enum CaptionMoment: String, Sendable, Hashable, CaseIterable {
    /// `isReady` becomes true, including when the operation is added to its
    /// queue already ready (KVO's initial notification says `true`).
    case ready
    /// `isExecuting` becomes true.
    case starts
    /// `isFinished` becomes true, cancelled or not.
    case finishes
    /// `isCancelled` becomes true.
    case cancelled
}

extension Scenario {
    /// The `at` captions sorted by time, equal times in file order: the
    /// order in which a run reaches them. Merged with `actions`, the
    /// actions of a time come before its captions.
    public var timedCaptions: [Caption] {
        let timed = captions.filter { $0.time != nil }
        let order = timed.indices.sorted { a, b in
            let (x, y) = (timed[a].time!, timed[b].time!)
            return x != y ? x < y : a < b
        }
        return order.map { timed[$0] }
    }
}
