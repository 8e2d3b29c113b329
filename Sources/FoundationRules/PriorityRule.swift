/// Where a queue files an operation among its ready ones, and what a later
/// change of its `queuePriority` does there (swift-corelibs-foundation's
/// `_addOperations` and `Operation.changePriority`).
public enum PriorityRule {
    /// What chose the bucket an operation was filed under.
    public enum Source: Sendable, Hashable {
        /// Its explicit `queuePriority`.
        case explicit
        /// Its quality of service (no explicit priority, a cap other than 1).
        case qos
        /// Neither: it has no priority and no QoS.
        case normal
        /// Its QoS names another bucket than normal, but its queue's cap was
        /// 1 when it was added, so the QoS was not asked.
        case qosIgnored
    }

    /// The bucket an add files an operation under, and why.
    public struct Filing: Sendable, Hashable {
        public var level: PriorityLevel
        public var source: Source

        public init(level: PriorityLevel, source: Source) {
            self.level = level
            self.source = source
        }
    }

    /// The bucket an add files an operation under: its explicit priority;
    /// without one, its QoS's (`QoSLevel.impliedPriority`) when its queue's
    /// limit is not 1 at that moment; else normal. `limitAtAdd` is
    /// `CapRule.limit` (nil: the system decides). Probes `batch`,
    /// `onebyone` (explicit priorities), `qosqueue` and `qosserial` (the
    /// QoS asked on a queue of cap 2, not on a serial one).
    public static func filing(explicit: PriorityLevel?, qos: QoSLevel?, limitAtAdd: Int?) -> Filing {
        if let explicit { return Filing(level: explicit, source: .explicit) }
        guard let qos else { return Filing(level: .normal, source: .normal) }
        guard limitAtAdd != 1 else {
            return Filing(level: .normal, source: qos.impliedPriority == .normal ? .normal : .qosIgnored)
        }
        return Filing(level: qos.impliedPriority, source: .qos)
    }

    /// The bucket a priority change looks for the operation in: its
    /// explicit priority or, without one, its QoS's, whatever the cap was
    /// at the add. Where the operation was filed elsewhere (a serial queue
    /// ignored its QoS), the change does not find it.
    public static func looksIn(explicit: PriorityLevel?, qos: QoSLevel?) -> PriorityLevel {
        explicit ?? qos?.impliedPriority ?? .normal
    }

    /// Where the operation is when its priority is set.
    public enum Place: Sendable, Hashable {
        /// In no queue: not added yet, or finished (its queue let it go).
        case outsideQueue
        /// In its queue: filed under `filedUnder`, or (nil) in no bucket
        /// any more, dispatched or started.
        case inQueue(filedUnder: PriorityLevel?)
    }

    /// What setting `queuePriority` does.
    public enum Change: Sendable, Hashable {
        /// Nothing: the explicit priority is that already, or, in a queue,
        /// the bucket looked in is that one.
        case nothing
        /// The explicit priority is set; no bucket is touched.
        case remembered
        /// The explicit priority is set and the operation leaves its bucket
        /// for the end of the new one: behind everything filed there.
        case moved
        /// The explicit priority is set, but the operation was not in the
        /// bucket looked in: it stays where it is, the change lost for the
        /// order (`filedUnder` not nil), or it is in no bucket any more.
        case stays
    }

    /// What setting `queuePriority` to `new` does, as the setter and
    /// `changePriority` make it. Probes `prioback` (lowered and set back, an
    /// operation goes to the end of its bucket) and `prioqos` (on a serial
    /// queue, an operation whose QoS names another bucket keeps its place).
    public static func change(
        to new: PriorityLevel, explicit: PriorityLevel?, qos: QoSLevel?, place: Place
    ) -> Change {
        guard explicit != new else { return .nothing }
        guard case .inQueue(let filedUnder) = place else { return .remembered }
        let leaving = looksIn(explicit: explicit, qos: qos)
        guard leaving != new else { return .nothing }
        return filedUnder == leaving ? .moved : .stays
    }
}
