import TextKit

/// Foundation's `addDependency` looks along the operation's dependencies
/// already added before it adds one, so an operation given n of them
/// spends time growing as n² inside Foundation before anything runs.
///
/// Measured with a plain-Foundation program (no opscope code: one
/// `BlockOperation` given n others with `addDependency`) on this project's
/// machine (2 cores, Swift 6.3.1, release build), median of five runs:
/// 25,000 took 0.21 s, 50,000 0.76 s, 100,000 2.7 s, 200,000 11.4 s
/// (three runs), 400,000 42 s (one run). Up to 50,000 it stays within
/// about a second; past it, the wait grows by the square.
public enum FanIn {
    /// The most `after` names an operation gets without a warning.
    public static let quietLimit = 50_000

    /// Seconds per n² (2.7 s at 100,000).
    static let secondsPerSquare = 2.7e-10

    /// About how long Foundation takes to record `count` dependencies of
    /// one operation, in seconds.
    public static func seconds(forDependencies count: Int) -> Double {
        secondsPerSquare * Double(count) * Double(count)
    }

    /// `0.8`, `2.7`, `270`: one decimal below ten seconds, two significant
    /// digits above.
    static func spelled(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 1e15 else { return "forever" }
        guard seconds >= 9.95 else {
            let tenths = Int((max(0, seconds) * 10).rounded())
            return "\(tenths / 10).\(tenths % 10)"
        }
        var scale = 1
        while seconds >= Double(100 * scale) { scale *= 10 }
        return Spelling.grouped(Int((seconds / Double(scale)).rounded()) * scale)
    }
}

extension Diagnostic {
    /// An operation with more `after` names than Foundation records in
    /// about a second: the run waits that long before the first add.
    public static func slowFanIn(_ name: String, count: Int, at location: SourceLocation) -> Diagnostic {
        .warning(
            "'\(name)' waits for \(Spelling.grouped(count)) operations: Foundation's addDependency is quadratic: "
                + "about \(FanIn.spelled(FanIn.seconds(forDependencies: count))) s here",
            at: location,
            notes: [
                "each addDependency looks along the dependencies already added: 50,000 take about 0.8 s on "
                    + "2 cores, 100,000 about 2.7 s"
            ])
    }
}
