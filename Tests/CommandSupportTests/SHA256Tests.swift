import CommandSupport
import Testing

/// SHA-256 against the standard's own examples (FIPS 180-4 and its
/// published test vectors), whole and fed in pieces.
@Suite struct SHA256Tests {
    struct Vector: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var input: [UInt8]
        var digest: String
    }

    static let vectors = [
        Vector(
            testDescription: "nothing", input: [],
            digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        Vector(
            testDescription: "abc", input: Array("abc".utf8),
            digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        Vector(
            testDescription: "448 bits, two blocks once padded",
            input: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        Vector(
            testDescription: "896 bits",
            input: Array(
                ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                    + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8),
            digest: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        Vector(
            testDescription: "a million a's", input: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
            digest: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    @Test(arguments: vectors) func theDigestIsTheStandardOne(_ vector: Vector) {
        #expect(SHA256.hex(vector.input) == vector.digest)
    }

    @Test func anySplitOfTheInputGivesTheSameDigest() {
        // 200 bytes: splits land inside blocks, on their edges and on the
        // 55/56-byte padding edge.
        let input = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = SHA256.hex(input)
        for split in [0, 1, 55, 56, 63, 64, 65, 119, 128, 199, 200] {
            var hasher = SHA256Hasher()
            hasher.update(input[..<split])
            hasher.update(input[split...])
            #expect(hasher.finalize() == whole, "split at \(split)")
        }
        var byteByByte = SHA256Hasher()
        for byte in input { byteByByte.update([byte]) }
        #expect(byteByByte.finalize() == whole)
    }

    @Test func finalizingLeavesTheHasherAsItWas() {
        var hasher = SHA256Hasher()
        hasher.update(Array("ab".utf8))
        #expect(hasher.finalize() == SHA256.hex(Array("ab".utf8)))
        hasher.update(Array("c".utf8))
        #expect(hasher.finalize() == SHA256.hex(Array("abc".utf8)))
    }
}
