/// The tags a run gives the threads it sees, as its events name them: 0
/// for the main thread, 1, 2, … for the others in the order the run first
/// sees them. A thread is tagged once: asked again, it gets the tag it got
/// first, so one thread is never drawn as two.
struct ThreadTags {
    /// Each thread seen (its `pthread_self()`) and its tag, in the order
    /// seen. A run sees a few dozen threads: a look along the list is
    /// cheaper than a dictionary's hash for so few.
    private(set) var seen: [(id: UInt, tag: Int16)] = []
    /// The tag the next new thread that is not the main one gets.
    private(set) var nextNumber: Int16 = 1

    /// The tag of `thread`, given it now if it is new.
    mutating func tag(_ thread: RunModel.ThreadIdentity) -> Int16 {
        for (id, tag) in seen where id == thread.id { return tag }
        let tag: Int16
        if thread.isMain {
            tag = 0
        } else {
            tag = nextNumber
            nextNumber += 1
        }
        seen.append((thread.id, tag))
        return tag
    }
}
