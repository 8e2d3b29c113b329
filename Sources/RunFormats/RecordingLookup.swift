import RunEvents
import ScenarioKit
import TextKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a recording's lines name, resolved against its scenario: the
/// names of queues and operations, the `at` action or caption an event
/// stands for, the reason behind an `ignored` text or a stuck clause.
struct RecordingLookup {
    let scenario: Scenario
    let names: NameTable
    let queueOfOperation: [QueueID]
    /// The operations started by hand: in no queue.
    let byHand: Set<OperationID>
    /// The number of execution blocks of each operation; nil for one that
    /// is not a `blocks` operation.
    let blockCounts: [Int?]
    private var timed: [Action: Cursor]
    private var captions: [CaptionKey: Cursor]

    /// Scenario indices of one kind, in the order a run reaches them, and
    /// how many of them the recording has matched so far.
    private struct Cursor {
        var indices: [Int]
        var next = 0

        /// The first not matched yet; when all are, the last.
        mutating func take() -> Int {
            guard next < indices.count else { return indices[indices.count - 1] }
            next += 1
            return indices[next - 1]
        }
    }

    /// What a caption line says of its caption.
    private struct CaptionKey: Hashable {
        var text: String
        /// nil for an `at` caption.
        var when: When?

        struct When: Hashable {
            var op: OperationID
            var moment: CaptionMoment
        }
    }

    init(scenario: Scenario) {
        self.scenario = scenario
        names = NameTable(
            scenario.queues.enumerated().map { ($1.name, NameTable.Entry(isQueue: true, index: $0)) }
                + scenario.operations.enumerated().map { ($1.name, NameTable.Entry(isQueue: false, index: $0)) })
        queueOfOperation = scenario.operations.map(\.queue)
        byHand = scenario.startedByHand
        blockCounts = scenario.operations.map { spec in
            if case .blocks(let durations) = spec.body { return durations.count }
            return nil
        }
        // `actions` is in time order, which is the order the engine
        // performs them in.
        var timed: [Action: Cursor] = [:]
        for (index, action) in scenario.actions.enumerated() {
            timed[action.action, default: Cursor(indices: [])].indices.append(index)
        }
        self.timed = timed
        // `at` captions in time order, equal times in file order; `when`
        // captions of one moment in file order.
        let order = scenario.captions.indices.sorted { a, b in
            let (x, y) = (scenario.captions[a].time, scenario.captions[b].time)
            if let x, let y, x != y { return x < y }
            return a < b
        }
        var captions: [CaptionKey: Cursor] = [:]
        for index in order {
            let caption = scenario.captions[index]
            var key = CaptionKey(text: caption.text)
            if case .when(let op, let moment) = caption.trigger { key.when = CaptionKey.When(op: op, moment: moment) }
            captions[key, default: Cursor(indices: [])].indices.append(index)
        }
        self.captions = captions
    }

    /// The `Scenario.actions` index of an action performed by an `at` line.
    ///
    /// A line says `"origin":"at"` without the index. The engine performs
    /// the timed actions in time order, so the recording's k-th performed
    /// `cancel fetch` is the scenario's k-th `at … cancel fetch`: the first
    /// one not matched yet, whose time is at most the event's in any real
    /// recording. Should a recording perform it more often than the file
    /// says, the extra ones are taken as the last. nil: no `at` line of the
    /// scenario performs this action.
    mutating func timedIndex(of action: Action) -> Int? {
        guard timed[action] != nil else { return nil }
        return timed[action]!.take()
    }

    /// The `Scenario.captions` index of a caption line, matched the same
    /// way: the first not matched yet of those with this text (and this
    /// operation and moment), in the order a run reaches them.
    mutating func captionIndex(text: String, when: (op: OperationID, moment: CaptionMoment)?) -> Int? {
        let key = CaptionKey(text: text, when: when.map { CaptionKey.When(op: $0.op, moment: $0.moment) })
        guard captions[key] != nil else { return nil }
        return captions[key]!.take()
    }

    /// Each reason the engine gives for ignoring an action, by its text.
    static let refusals: [String: ActionRefusal] = Dictionary(
        ActionRefusal.allCases.map { ($0.text, $0) }, uniquingKeysWith: { first, _ in first })

    /// A clause of a `stuck` map (`StuckReason.clause`) read back: the
    /// formats are fixed and names have no spaces or commas, so each
    /// clause has one reading. Either form of a suspended queue's clause is
    /// taken, the stall's or the end's. nil: not a clause opscope writes,
    /// or one that names what the scenario does not have.
    /// Whether the operation's `start()` forgets isFinished when cancelled.
    func forgetsIfCancelled(_ op: OperationID) -> Bool { scenario.forgetsIfCancelled.contains(op) }

    /// Whether the operation's `main()` leaves work running (`leaves`).
    func hasLeftover(_ op: OperationID) -> Bool { scenario.leftover(of: op) != nil }

    func stuckReason(_ clause: String) -> StuckReason? {
        if clause == StuckReason.neverPostedFinish.clause(in: scenario) { return .neverPostedFinish }
        if clause == StuckReason.unknown.clause(in: scenario) { return .unknown }
        if clause == StuckReason.mainThreadBlocked.clause(in: scenario) { return .mainThreadBlocked }
        if clause == StuckReason.notStartedByHand.clause(in: scenario) { return .notStartedByHand }
        let queuePrefix = "its queue "
        for suffix in [" is suspended and nothing resumes it", " is suspended"] {
            if let name = clause.between(queuePrefix, suffix) {
                return queue(named: name).map(StuckReason.queueSuspended)
            }
        }
        if let slot = slotReason(clause) { return slot }
        guard let chain = clause.between("it waits for ", ", which never finishes") else { return nil }
        let parts = chain.split(separator: ", which waits for ", omittingEmptySubsequences: false)
        guard parts.count <= 2, let dependency = operation(named: String(parts[0])),
            let root = operation(named: String(parts[parts.count - 1]))
        else { return nil }
        // `waitsFor(a, root: a)` has the short form only.
        if parts.count == 2 && dependency == root { return nil }
        return .waitsFor(dependency, root: root)
    }

    /// `it waits for a slot of dl: 3 of 3 slots held: ep07, ep12, ep19
    /// started and never finished` read back: parsed loosely, then taken
    /// only when it writes exactly the same clause again.
    private func slotReason(_ clause: String) -> StuckReason? {
        let parts = clause.components(separatedBy: ": ")
        guard parts.count == 3, parts[0].hasPrefix("it waits for a slot of "),
            let q = queue(named: String(parts[0].dropFirst("it waits for a slot of ".count))),
            parts[2].hasSuffix(" started and never finished")
        else { return nil }
        let words = parts[1].split(separator: " ")
        guard let cap = words.last.flatMap({ Int($0) }) ?? (words.count > 2 ? Int(words[2]) : nil) else {
            return nil
        }
        var holders: [OperationID] = []
        for name in parts[2].dropLast(" started and never finished".count).components(separatedBy: ", ") {
            guard let op = operation(named: name) else { return nil }
            holders.append(op)
        }
        let reason = StuckReason.waitsForSlot(q, cap: cap, holders: holders)
        return reason.clause(in: scenario) == clause ? reason : nil
    }

    func operation(named name: String) -> OperationID? {
        guard let entry = names.entry(named: name), !entry.isQueue else { return nil }
        return OperationID(entry.index)
    }

    func queue(named name: String) -> QueueID? {
        guard let entry = names.entry(named: name), entry.isQueue else { return nil }
        return QueueID(entry.index)
    }

    /// `unknown operation 'fecth' (did you mean 'fetch'?)`, `'net' is a
    /// queue, not an operation`: looked up only for the one line that fails.
    func unknownName(_ name: String, wantsQueue: Bool) -> String {
        if let entry = names.entry(named: name) {
            return entry.isQueue ? "'\(name)' is a queue, not an operation" : "'\(name)' is an operation, not a queue"
        }
        let candidates = wantsQueue ? scenario.queues.map(\.name) : scenario.operations.map(\.name)
        let suggestion = Suggestion.hint(SuggestionIndex(candidates).nearest(to: name))
        return "unknown \(wantsQueue ? "queue" : "operation") '\(name)'\(suggestion)"
    }
}

extension String {
    /// What lies between `prefix` and `suffix` when the string is exactly
    /// that, with something between.
    fileprivate func between(_ prefix: String, _ suffix: String) -> String? {
        guard count > prefix.count + suffix.count, hasPrefix(prefix), hasSuffix(suffix) else { return nil }
        return String(dropFirst(prefix.count).dropLast(suffix.count))
    }
}

/// The scenario's names, looked up by their UTF-8 bytes straight from a
/// line (open addressing, FNV-1a), so that resolving a name costs no
/// `String`.
struct NameTable: Sendable {
    struct Entry: Sendable, Hashable {
        var isQueue: Bool
        var index: Int
    }

    private var storage: [UInt8] = []
    /// Where each name ends in `storage`.
    private var ends: [Int] = []
    private var entries: [Entry] = []
    /// Entry numbers, -1 where empty; a power of two long, at most half full.
    private var slots: [Int32]
    private let mask: Int

    init(_ names: [(String, Entry)]) {
        var size = 16
        while size < names.count * 2 { size *= 2 }
        slots = Array(repeating: -1, count: size)
        mask = size - 1
        for (name, entry) in names {
            var name = name
            // Names are unique in a valid scenario; keep the first anyway.
            let exists = name.withUTF8 { find($0) } != nil
            if exists { continue }
            storage.append(contentsOf: name.utf8)
            ends.append(storage.count)
            entries.append(entry)
            let number = entries.count - 1
            var slot = name.withUTF8 { Self.hash($0) } & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
        }
    }

    func entry(named name: String) -> Entry? {
        var name = name
        return name.withUTF8 { find($0) }
    }

    func find(_ key: UnsafeBufferPointer<UInt8>) -> Entry? {
        var slot = Self.hash(key) & mask
        while true {
            let number = Int(slots[slot])
            if number < 0 { return nil }
            let start = number == 0 ? 0 : ends[number - 1]
            let end = ends[number]
            if end - start == key.count {
                let same = storage.withUnsafeBufferPointer { names in
                    key.isEmpty || memcmp(names.baseAddress! + start, key.baseAddress!, key.count) == 0
                }
                if same { return entries[number] }
            }
            slot = (slot + 1) & mask
        }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            h = (h ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: h ^ (h >> 32))
    }
}

extension RecordingLookup {
    /// Operation `op` is started by hand (a `start` action names it).
    func isByHand(_ op: OperationID) -> Bool { !byHand.isEmpty && byHand.contains(op) }
}
