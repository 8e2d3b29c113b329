import RunEvents

extension BoardHistory {
    /// The events of a run in order, as the history keeps them: one
    /// 32-byte `EventRecord` each (a run of 100,000 operations has about
    /// 600,000), read back as `LifecycleEvent`s on access.
    ///
    /// The records are kept in chunks of a fixed size, so that appending
    /// one never moves the whole run: the interface appends on its main
    /// thread, between frames.
    public struct Events: RandomAccessCollection, Sendable {
        private static let chunkShift = 12
        private static let chunkSize = 1 << chunkShift

        private var chunks: [ContiguousArray<EventRecord>] = []
        /// The events no record holds (`EventRecord.Form.aside`), whole.
        private var aside: [LifecycleEvent] = []
        private var recorded = 0

        public var startIndex: Int { 0 }
        public var endIndex: Int { recorded }

        public subscript(position: Int) -> LifecycleEvent {
            record(at: position).event(aside: aside)
        }

        /// The scenario time of the event at `position`, without reading
        /// back the whole event.
        func time(at position: Int) -> Double { record(at: position).time }

        mutating func append(_ event: LifecycleEvent) {
            let record = EventRecord(event) ?? EventRecord(aside: event, at: Int32(aside.count))
            if record.form == .aside { aside.append(event) }
            if recorded % Self.chunkSize == 0 { chunks.append([]) }
            chunks[chunks.count - 1].append(record)
            recorded += 1
        }

        private func record(at position: Int) -> EventRecord {
            chunks[position >> Self.chunkShift][position & (Self.chunkSize - 1)]
        }

        /// The first `count` events that are not about one operation (no
        /// key change of an operation, dispatch, block or completion): the
        /// queues' changes, the actions, the rest kept aside. Read without
        /// reading back the others, which are nearly all of a run.
        public func apartFromOperations(prefix count: Int) -> [LifecycleEvent] {
            var found: [LifecycleEvent] = []
            var left = Swift.min(count, recorded)
            // Chunk by chunk: one look at each record's form.
            for chunk in chunks where left > 0 {
                for record in chunk.prefix(left) {
                    switch record.form {
                    case .operation, .operationOnThread, .dispatched, .block, .completion: continue
                    case .aside, .queue, .caption, .completed: found.append(record.event(aside: aside))
                    }
                }
                left -= Swift.min(left, chunk.count)
            }
            return found
        }
    }
}
