import TextKit

/// The messages of `speed` and of the captions (`at TIME say`,
/// `when OP MOMENT say`), with the same rules as the others: lower-case,
/// no trailing period, each pinned by a test in `PaceAndCaptionTests`.
extension Diagnostic {
    // MARK: Syntax

    /// What a speed means, the note of every `speed` error.
    static let speedNote = "speed 1 is real time, 0.5 half as fast, 2 twice as fast"

    /// `speed fast`, or `speed` alone (then `location` is the end of the statement).
    public static func speedNeedsNumber(at location: SourceLocation) -> Diagnostic {
        .error("'speed' needs a number such as 0.5", at: location, notes: [speedNote])
    }

    /// `speed 2s`, `speed 2x`: `number` is the same number without its unit.
    public static func speedHasUnit(_ text: String, number: String, at location: SourceLocation) -> Diagnostic {
        .error("a speed has no unit, found '\(text)'", at: location, notes: ["write 'speed \(number)'", speedNote])
    }

    /// `text` is the number as written.
    public static func speedOutOfRange(_ text: String, at location: SourceLocation) -> Diagnostic {
        .error("speed must be between 0.125 and 64, not \(text)", at: location, notes: [speedNote])
    }

    /// `speed 1 up to` with no number, or a word after `to`.
    public static func promisedSpeedNeedsNumber(at location: SourceLocation) -> Diagnostic {
        .error(
            "'up to' needs the fastest speed its expectations hold at, such as 4", at: location,
            notes: [promisedNote])
    }

    /// `speed 2 up to 1`, `speed 1 up to 5000`: `speed` is the statement's own speed.
    public static func promisedSpeedOutOfRange(_ text: String, speed: String, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            "'up to' must be between \(speed) (the speed) and 1000, not \(text)", at: location, notes: [promisedNote])
    }

    static let promisedNote =
        "'speed 1 up to 4' opens at 1 and promises the expectations at any speed up to 4"

    public static func emptyCaption(at location: SourceLocation) -> Diagnostic {
        .error("the caption has no text", at: location)
    }

    /// Something after the closing quote of a caption's text.
    public static func textAfterCaption(_ found: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "unexpected '\(found)' after the caption's text", at: location,
            notes: ["a caption is one quoted string: put all of its text inside the quotes"])
    }

    public static func unknownCaptionMoment(_ word: String, suggestion: String?, at location: SourceLocation)
        -> Diagnostic
    {
        .error(
            "unknown moment '\(word)'", at: location,
            notes: suggestion.map { [Suggestion.didYouMean($0)] }
                ?? ["moments are ready, starts, finishes and cancelled"])
    }

    /// `when 1s say …`: a time where the operation should be.
    public static func whenNeedsOperation(found: String, at location: SourceLocation) -> Diagnostic {
        .error(
            "expected an operation after 'when', found '\(found)'", at: location,
            notes: ["a caption at a time is written 'at \(found) say \"…\"'"])
    }

    // MARK: Meaning (validator)

    public static func duplicateSpeed(firstLine: Int, at location: SourceLocation) -> Diagnostic {
        .error("a scenario has at most one speed", at: location, notes: ["the first speed is on line \(firstLine)"])
    }

    /// `when NAME cancelled say …` when no `at` action and no completion
    /// block of the file can cancel NAME. `queue` is NAME's queue.
    public static func captionNeverCancelled(
        _ name: String, isBarrier: Bool, queue: String, at location: SourceLocation
    ) -> Diagnostic {
        let note =
            isBarrier
            ? "a barrier is cancelled with its queue: add 'at TIME cancel-all \(queue)' to cancel it"
            : "add 'at TIME cancel \(name)' to cancel it"
        return .warning(
            "nothing in this file cancels '\(name)': this caption shows only if you cancel it by hand", at: location,
            notes: [note])
    }
}
