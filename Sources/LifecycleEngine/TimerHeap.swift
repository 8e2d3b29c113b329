/// Min-heap of timers that end asynchronous operations, by scenario time
/// (ties in the order they were set).
struct TimerHeap {
    struct Entry {
        var due: Double
        var order: Int
        var op: Int32
    }

    private var items: [Entry] = []
    private var counter = 0

    var isEmpty: Bool { items.isEmpty }
    var first: Entry? { items.first }

    private static func less(_ a: Entry, _ b: Entry) -> Bool {
        a.due < b.due || (a.due == b.due && a.order < b.order)
    }

    mutating func push(due: Double, op: Int32) {
        counter += 1
        items.append(Entry(due: due, order: counter, op: op))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if Self.less(items[i], items[parent]) {
                items.swapAt(i, parent)
                i = parent
            } else {
                break
            }
        }
    }

    mutating func pop() -> Entry? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1
            let r = l + 1
            var m = i
            if l < items.count && Self.less(items[l], items[m]) { m = l }
            if r < items.count && Self.less(items[r], items[m]) { m = r }
            if m == i { break }
            items.swapAt(i, m)
            i = m
        }
        return top
    }

    mutating func removeAll() { items.removeAll() }
}
