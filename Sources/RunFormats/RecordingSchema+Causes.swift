import RunEvents

// The keys inside a stall's or a stalled end's `causes` (SCENARIO-LANGUAGE.md,
// "The event stream"), written once for both sides: `JSONLineEncoder`
// writes them in the order of their cases, `EventLineReader` reads by them.

/// The keys of one cause, in the order written.
enum CauseKey: String, CaseIterable, Sendable {
    case kind, text, count, first, queue, op, suspended, resumes
}

/// The keys of a cause's `suspended`: who suspended its queue, and when.
enum SuspendedKey: String, CaseIterable, Sendable {
    case t, origin, by
}

/// The keys of each of a cause's `resumes`.
enum ResumeKey: String, CaseIterable, Sendable {
    case origin, by, t, held, cycle
}

/// The words of `suspended`'s `origin`: an action's (`at`, `completion`,
/// `user`), or `start` for a queue its file declares `suspended`. A
/// resume's is `at` or `completion`.
enum SuspendedOrigin: String, CaseIterable, Sendable {
    case at, completion, user, start
}

/// A small writer of one JSON object's keys: `{` before the first, `,`
/// before the others.
struct JSONObjectBytes {
    private var opened = false

    mutating func key(_ name: String, to out: inout [UInt8]) {
        out.append(opened ? UInt8(ascii: ",") : UInt8(ascii: "{"))
        opened = true
        JSONBytes.appendQuoted(name, to: &out)
        out.append(UInt8(ascii: ":"))
    }

    func close(_ out: inout [UInt8]) {
        if !opened { out.append(UInt8(ascii: "{")) }
        out.append(UInt8(ascii: "}"))
    }
}
