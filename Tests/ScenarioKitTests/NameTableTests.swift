import Testing

@testable import ScenarioKit

/// The validator's table of operation names: the first insertion of a
/// name wins, lookups find exactly what was inserted, and it grows past
/// the capacity it was made with.
@Suite struct NameTableTests {
    @Test func firstInsertionWinsAndLookupsFindIt() {
        var table = NameTable(capacity: 4)
        #expect(table.insertFirst("a", value: 0) == 0)
        #expect(table.insertFirst("b", value: 1) == 1)
        #expect(table.insertFirst("a", value: 2) == 0)
        #expect(table["a"] == 0)
        #expect(table["b"] == 1)
        #expect(table["c"] == nil)
        #expect(table[""] == nil)
        #expect(table.count == 2)
    }

    /// Many more names than its first capacity, with every tenth one
    /// declared twice, checked against a dictionary.
    @Test func growsAndAgreesWithADictionary() {
        var table = NameTable()
        var reference: [String: Int] = [:]
        for i in 0..<20_000 {
            let name = i % 10 == 9 ? "op\(i - 9)" : "op\(i)"
            let first = table.insertFirst(name, value: i)
            if let known = reference[name] {
                #expect(first == known)
            } else {
                reference[name] = i
                #expect(first == i)
            }
        }
        #expect(table.count == reference.count)
        for (name, value) in reference { #expect(table[name] == value) }
        for i in 0..<1_000 { #expect(table["other\(i)"] == nil) }
        // Long names (not stored inline in the String) and Unicode.
        let long = String(repeating: "x", count: 100)
        #expect(table.insertFirst(long, value: -1) == -1)
        #expect(table.insertFirst(long + "", value: -2) == -1)
        #expect(table["é"] == nil)
    }
}
