/// Names → the index of their first declaration: the validator's table of
/// operation names, which a file of 100,000 operations fills and reads
/// some 200,000 times.
///
/// Open addressing over 32-bit slots, keyed by `String.hashValue` (the
/// standard library's seeded hash, so no file can be written to make its
/// names collide), probing linearly in a table at most half full. A
/// `[String: Int]` does the same work at about three times the cost here,
/// most of it in its generic storage.
struct NameTable {
    /// The names in the order they were first inserted, and their values.
    private var keys: [String] = []
    private var values: [Int] = []
    /// Indices into `keys`, or -1 where empty; a power of two long.
    private var slots: [Int32]
    private var mask: Int

    init(capacity: Int = 0) {
        var size = 16
        while size < 2 * capacity { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    var count: Int { keys.count }

    subscript(name: String) -> Int? {
        var slot = name.hashValue & mask
        while true {
            let key = Int(slots[slot])
            if key < 0 { return nil }
            if keys[key] == name { return values[key] }
            slot = (slot + 1) & mask
        }
    }

    /// The value of `name`'s first insertion: `value` when it is new (and
    /// is now inserted), the earlier one when it was there already.
    mutating func insertFirst(_ name: String, value: Int) -> Int {
        if 2 * (keys.count + 1) > slots.count { grow() }
        var slot = name.hashValue & mask
        while true {
            let key = Int(slots[slot])
            if key < 0 { break }
            if keys[key] == name { return values[key] }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(truncatingIfNeeded: keys.count)
        keys.append(name)
        values.append(value)
        return value
    }

    private mutating func grow() {
        let size = slots.count * 2
        slots = [Int32](repeating: -1, count: size)
        mask = size - 1
        for (key, name) in keys.enumerated() {
            var slot = name.hashValue & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: key)
        }
    }
}
