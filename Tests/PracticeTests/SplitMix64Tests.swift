import Testing

@testable import Practice

@Suite("SplitMix64: the generator's only source of draws")
struct SplitMix64Tests {
    @Test("seed 0 gives the published first outputs of SplitMix64")
    func knownOutputs() {
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("a bounded draw stays in bounds and reaches every value", arguments: [1, 2, 3, 7, 10])
    func bounded(_ bound: Int) {
        var random = SplitMix64(seed: 42)
        var seen = Set<Int>()
        for _ in 0..<500 {
            let value = random.below(bound)
            #expect((0..<bound).contains(value))
            seen.insert(value)
        }
        #expect(seen.count == bound)
    }

    @Test("a shuffle is a permutation, and the same seed shuffles the same way")
    func shuffle() {
        var a = SplitMix64(seed: 7)
        var b = SplitMix64(seed: 7)
        let items = Array(0..<20)
        let once = a.shuffled(items)
        #expect(once.sorted() == items)
        #expect(once != items)
        #expect(b.shuffled(items) == once)
    }

    @Test("derived seeds differ by level and by attempt, and are stable")
    func derived() {
        let seeds = (1...3).flatMap { level in (0..<5).map { SplitMix64.derive(seed: 9, level: level, attempt: $0) } }
        #expect(Set(seeds).count == seeds.count)
        #expect(SplitMix64.derive(seed: 9, level: 2, attempt: 3) == SplitMix64.derive(seed: 9, level: 2, attempt: 3))
    }
}
