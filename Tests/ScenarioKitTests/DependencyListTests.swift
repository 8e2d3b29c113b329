import Testing

@testable import ScenarioKit

/// An operation's dependencies: a list like an array, whatever it holds
/// (none, one kept inline, or a shared array of several).
@Suite struct DependencyListTests {
    @Test func listsWhatItWasGivenInOrder() {
        let ids = (0..<5).map(OperationID.init)
        for n in 0...5 {
            let list = DependencyList(ids.prefix(n))
            #expect(Array(list) == Array(ids.prefix(n)))
            #expect(list.count == n && list.isEmpty == (n == 0))
        }
        let far = OperationID(Int(UInt32.max) + 1)
        #expect(Array(DependencyList([far])) == [far], "an index beyond 32 bits is kept as a list")
    }

    @Test func listsOfTheSameDependenciesAreEqualAndHashAlike() {
        let made = DependencyList([3, 1, 2].map(OperationID.init))
        #expect(made == [OperationID(3), OperationID(1), OperationID(2)])
        #expect(made != [OperationID(3), OperationID(2), OperationID(1)])
        #expect(made.hashValue == DependencyList([3, 1, 2].map(OperationID.init)).hashValue)
        #expect(Set([DependencyList([OperationID(7)]), [OperationID(7)]]).count == 1)
        #expect(DependencyList([OperationID(7)]) != [OperationID(8)])
        #expect(made + [OperationID(9)] == [3, 1, 2, 9].map(OperationID.init))
        #expect(made + DependencyList([OperationID(4)]) == [3, 1, 2, 4].map(OperationID.init))
    }
}
