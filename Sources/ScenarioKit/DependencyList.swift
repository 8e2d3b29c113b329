/// An operation's `addDependency` targets, in the order written: a list
/// like an array, kept without an allocation of its own for none or one.
/// Made once, from the whole list, so each list has one form and equal
/// lists are equal values.
///
/// Most operations of a large file have none or one (a chain, a fan-out):
/// a one-element array is an allocation of 48 bytes, which a million-link
/// chain holds for the whole run beside Foundation's own operations.
public struct DependencyList: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// One index in 32 bits, so that the three cases fit the 8 bytes of
    /// an array reference (its spare bits tell them apart).
    private enum Storage: Sendable, Hashable {
        case none
        case one(UInt32)
        case many([OperationID])
    }

    private var storage: Storage

    public init() { storage = .none }

    public init(_ elements: some Sequence<OperationID>) {
        let array = Array(elements)
        if array.isEmpty {
            storage = .none
        } else if array.count == 1, let index = UInt32(exactly: array[0].index) {
            storage = .one(index)
        } else {
            storage = .many(array)
        }
    }

    public init(arrayLiteral elements: OperationID...) { self.init(elements) }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .many(let all): all.count
        }
    }

    public subscript(position: Int) -> OperationID {
        switch storage {
        case .one(let only):
            precondition(position == 0, "index out of range")
            return OperationID(Int(only))
        case .many(let all): return all[position]
        case .none: preconditionFailure("index out of range")
        }
    }

    /// Where a list of two or more is kept (nil for none or one): the
    /// lists of operations after the same ones share it.
    var storageAddress: Int? {
        guard case .many(let all) = storage else { return nil }
        return all.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
    }

    /// The list and then `more`, as an array.
    public static func + (list: DependencyList, more: some Sequence<OperationID>) -> [OperationID] {
        Array(list) + Array(more)
    }
}
