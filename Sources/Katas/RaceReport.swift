import Foundation

/// The thread sanitizer's report of a run of a kata's race harness, read
/// down to what the user wrote: for the first data race, the line of the
/// user's file each of the two threads was at (the first frame of each
/// stack in that file), shown with its source text.
public enum RaceReport {
    /// What the race harness prints last, with how many of its operations
    /// finished: `opscope-kata-race finished 200`.
    public static let finishedPrefix = "opscope-kata-race finished "

    /// The line that grades the race check (`Kata.raceCheck`): a race (in
    /// the user's file or not), every operation finished without one, or
    /// not all finished; nil when the run says nothing either way (it
    /// crashed or was stopped before its end, with no report).
    public static func line(
        output: String, stderr: String, exitedCleanly: Bool, total: Int, userFile: String, source: String
    ) -> KataLine? {
        let check = Kata.raceCheck
        if let race = firstRace(in: stderr) {
            let fileName = userFile.split(separator: "/").last.map(String.init) ?? userFile
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            func place(_ access: Access) -> String? {
                guard let line = access.userLine(in: userFile) else { return nil }
                let text = line - 1 < lines.count ? lines[line - 1].trimmingCharacters(in: .whitespaces) : ""
                let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
                return "\(fileName):\(line)" + (shown.isEmpty ? "" : " (`\(shown)`)")
            }
            let first = place(race.first)
            let previous = place(race.previous)
            guard first != nil || previous != nil else {
                return KataLine(
                    check: check, outcome: "raceElsewhere", detail: race.first.frames.first ?? "an unnamed place")
            }
            let detail =
                "\(race.first.verb) at \(first ?? "a place outside your file") on one thread, "
                + "and \(race.previous.verb) at \(previous ?? "a place outside your file") on another, "
                + "with nothing ordering the two"
            return KataLine(check: check, outcome: "race", detail: detail)
        }
        guard exitedCleanly else { return nil }
        let finished = output.split(separator: "\n").last { $0.hasPrefix(finishedPrefix) }
            .flatMap { Int($0.dropFirst(finishedPrefix.count)) }
        guard let finished else { return nil }
        return KataLine(check: check, outcome: finished == total ? "pass" : "unfinished", count: finished)
    }

    /// One of a race's two accesses: how it touched the memory, and its
    /// stack's frames (each `SYMBOL FILE:LINE:COLUMN (…)`).
    struct Access {
        var verb: String
        var frames: [String]

        /// The line of the first frame in `file`.
        func userLine(in file: String) -> Int? {
            for frame in frames {
                guard let range = frame.range(of: file + ":") else { continue }
                let digits = frame[range.upperBound...].prefix { $0.isNumber }
                if let line = Int(digits) { return line }
            }
            return nil
        }
    }

    /// The first `WARNING: ThreadSanitizer: data race` in `text`: its two
    /// accesses, the later one first, as the sanitizer lists them.
    static func firstRace(in text: String) -> (first: Access, previous: Access)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.contains("WARNING: ThreadSanitizer: data race") }) else {
            return nil
        }
        var accesses: [Access] = []
        for line in lines[(start + 1)...] {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("SUMMARY:") || trimmed.hasPrefix("==========") { break }
            if let verb = verb(of: trimmed) {
                accesses.append(Access(verb: verb, frames: []))
            } else if trimmed.hasPrefix("#"), !accesses.isEmpty, accesses.count <= 2 {
                accesses[accesses.count - 1].frames.append(
                    String(trimmed.drop { $0 != " " }.dropFirst()))
            } else if trimmed.hasPrefix("Location is") || trimmed.hasPrefix("Thread T") {
                if accesses.count >= 2 { break }
            }
        }
        guard accesses.count >= 2 else { return nil }
        return (accesses[0], accesses[1])
    }

    /// `written`, `read`: an access's header (`Write of size 1 at 0x… by
    /// thread T4:`, `Previous read of size …`, `Atomic write …`) as a verb.
    static func verb(of header: String) -> String? {
        guard header.contains(" of size "), header.hasSuffix(":") else { return nil }
        let words = header.lowercased().split(separator: " ")
        if words.contains("write") { return "written" }
        if words.contains("read") { return "read" }
        return nil
    }
}
