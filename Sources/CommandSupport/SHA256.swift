/// SHA-256 (FIPS 180-4) of a byte sequence, as 64 lower-case hex digits.
///
/// Names a compiled program in the build cache by what went into it; the
/// toolchain gives Swift on Linux no digest of its own, and the project
/// fetches no packages. Not meant for secrets: nothing here is constant-time.
package enum SHA256 {
    /// The digest of `bytes`, as 64 lower-case hex digits.
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }
}

/// SHA-256 fed piece by piece, for input that comes in parts (a cache key
/// made of several fields): any split of the same bytes gives the same
/// digest as `SHA256.hex` of them all.
package struct SHA256Hasher: Sendable {
    /// The eight working words, H0...H7 of the standard.
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// Bytes not yet making a whole 64-byte block (fewer than 64).
    private var pending: [UInt8] = []
    /// Every byte given so far, for the length at the end of the padding.
    private var length: UInt64 = 0

    /// A hasher that has seen nothing.
    package init() { pending.reserveCapacity(64) }

    /// Adds `bytes` after everything given before.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            pending.append(byte)
            length &+= 1
            if pending.count == 64 {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// The digest of everything given, as 64 lower-case hex digits. The
    /// hasher itself is left as it was, so more may still be added.
    package func finalize() -> String {
        var copy = self
        let bits = length &* 8
        copy.pending.append(0x80)
        while copy.pending.count % 64 != 56 { copy.pending.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            copy.pending.append(UInt8(truncatingIfNeeded: bits >> shift))
        }
        for start in stride(from: 0, to: copy.pending.count, by: 64) {
            copy.compress(copy.pending[start..<start + 64])
        }
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(64)
        for word in copy.state {
            for shift in stride(from: 28, through: 0, by: -4) {
                text.append(digits[Int((word >> UInt32(shift)) & 0xf)])
            }
        }
        return text
    }

    /// Processes one 64-byte block into `state` (section 6.2.2).
    private mutating func compress(_ block: some Collection<UInt8>) {
        var schedule = [UInt32](repeating: 0, count: 64)
        var index = block.startIndex
        for t in 0..<16 {
            var word: UInt32 = 0
            for _ in 0..<4 {
                word = word << 8 | UInt32(block[index])
                index = block.index(after: index)
            }
            schedule[t] = word
        }
        for t in 16..<64 {
            let s0 = rotr(schedule[t - 15], 7) ^ rotr(schedule[t - 15], 18) ^ (schedule[t - 15] >> 3)
            let s1 = rotr(schedule[t - 2], 17) ^ rotr(schedule[t - 2], 19) ^ (schedule[t - 2] >> 10)
            schedule[t] = schedule[t - 16] &+ s0 &+ schedule[t - 7] &+ s1
        }
        var a = state[0]
        var b = state[1]
        var c = state[2]
        var d = state[3]
        var e = state[4]
        var f = state[5]
        var g = state[6]
        var h = state[7]
        for t in 0..<64 {
            let sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choose = (e & f) ^ (~e & g)
            let t1 = h &+ sum1 &+ choose &+ Self.roundConstants[t] &+ schedule[t]
            let sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = sum0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    private func rotr(_ word: UInt32, _ count: UInt32) -> UInt32 { word >> count | word << (32 - count) }

    /// K0...K63: the first 32 bits of the fractional parts of the cube
    /// roots of the first 64 primes (section 4.2.2).
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}
