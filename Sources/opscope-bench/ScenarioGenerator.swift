import CommandSupport

/// Generates large scenario texts for the benchmark.
enum ScenarioGenerator {
    /// `count` zero-work operations on one default-cap queue, no dependencies.
    static func flat(count: Int) -> String {
        var text = "title \"\(count) zero-work operations\"\nqueue q\n"
        text.reserveCapacity(count * 24)
        for i in 0..<count {
            text += "op o\(i) work 0ms\n"
        }
        return text
    }

    /// A layered graph: `layers` × `width` zero-work operations on one
    /// default-cap queue; every operation after the first layer depends on
    /// two of the layer before, and the first `extra` of them on a third,
    /// so 100 × 100 with extra 200 gives 10,000 operations and 20,000
    /// dependencies.
    static func layered(layers: Int, width: Int, extra: Int) -> String {
        var text = "title \"layered \(layers)×\(width)\"\nqueue q\n"
        text.reserveCapacity(layers * width * 48)
        var extraLeft = extra
        for layer in 0..<layers {
            for i in 0..<width {
                text += "op n\(layer)_\(i) work 0ms"
                if layer > 0 {
                    let previous = layer - 1
                    var deps = ["n\(previous)_\(i)", "n\(previous)_\((i + 1) % width)"]
                    if extraLeft > 0 {
                        deps.append("n\(previous)_\((i + 2) % width)")
                        extraLeft -= 1
                    }
                    text += " after " + deps.joined(separator: ", ")
                }
                text += "\n"
            }
        }
        return text
    }
}

extension ScenarioGenerator {
    /// `count` zero-work operations on one queue, each after the one
    /// before; the queue serial, as CI's chain (.ci/run), or with the
    /// default cap (where Foundation's own scheduling is quadratic).
    static func chain(count: Int, serial: Bool = false) -> String {
        linked(
            count: count,
            header: "title \"a chain of \(count) zero-work operations\"\nqueue q\(serial ? " serial" : "")\n",
            after: "o")
    }

    /// One zero-work operation, then `count − 1` after it, on one
    /// default-cap queue.
    static func fanOut(count: Int) -> String {
        var text = "title \"a fan-out of \(count) zero-work operations\"\nqueue q\nop o0 work 0ms\n"
        text.reserveCapacity(count * 24)
        for i in 1..<max(1, count) {
            text += "op o\(i) work 0ms after o0\n"
        }
        return text
    }

    /// `count` operations, each after a misspelt name (`o3` after `p2`, where
    /// `o2` is declared), for the diagnostics' speed: every one is an
    /// unknown name with a suggestion to look for.
    static func misspelt(count: Int) -> String {
        linked(count: count, header: "queue q\n", after: "p")
    }

    /// `op oN work 0ms after PREFIX(N-1)` for each N but the first.
    private static func linked(count: Int, header: String, after prefix: String) -> String {
        var text = header
        text.reserveCapacity(count * 40)
        for i in 0..<count {
            text += i == 0 ? "op o0 work 0ms\n" : "op o\(i) work 0ms after \(prefix)\(i - 1)\n"
        }
        return text
    }
}
