import Foundation

/// A scenario with the user's classes traced as a user traces it: `opscope
/// trace` of `chain.ops` (two classes of the user's and one operation of
/// opscope's), first with an empty cache (the classes type-checked, their
/// library compiled, then the child's run), then again with both kept.
@MainActor
enum OwnClassBench {
    static let scenario = "Tests/opscopeTests/Fixtures/own/chain.ops"

    static func run(report: BenchReport, rounds: Int) {
        report.section(
            "own: 'opscope trace' of a scenario with your classes, whole process (the library is compiled -Onone either way)"
        )
        guard FileManager.default.fileExists(atPath: scenario) else {
            report.line("not measured: run from the package's folder (\(scenario) is not here)")
            return
        }
        guard
            let (first, again) = FirstAndKept.measure(
                ["trace", scenario, "--format", "jsonl"], rounds: rounds, folders: ["XDG_CACHE_HOME"])
        else {
            report.line("not measured: the trace failed (is swiftc on PATH?)")
            return
        }
        let seconds = { FirstAndKept.seconds($0, digits: 2) }
        report.value("first trace, the library compiled", seconds(first))
        report.value("the same files again, kept", seconds(again))
    }
}

/// A kata checked as a candidate checks it: `opscope kata async-operation`
/// of its right answer, first with an empty cache (its two programs
/// compiled, the checks and the thread sanitizer's), then again with the
/// programs cached.
@MainActor
enum KataBench {
    static let kata = "async-operation"
    static let answer = "Tests/opscopeTests/Fixtures/katas/async-operation/correct.swift"

    static func run(report: BenchReport, rounds: Int) {
        report.section(
            "kata: 'opscope kata \(kata)' of a right answer, whole process (debug or release: the checks' programs are compiled -Onone either way)"
        )
        guard FileManager.default.fileExists(atPath: answer) else {
            report.line("not measured: run from the package's folder (\(answer) is not here)")
            return
        }
        // The data folder (where the practice record goes) is the round's
        // own too.
        guard
            let (first, again) = FirstAndKept.measure(
                ["kata", kata, answer], rounds: rounds, folders: ["XDG_CACHE_HOME", "XDG_DATA_HOME"])
        else {
            report.line("not measured: the check did not pass (is swiftc on PATH?)")
            return
        }
        let seconds = { FirstAndKept.seconds($0, digits: 1) }
        report.value("first check, both programs compiled", seconds(first))
        report.value("the same file again, programs cached", seconds(again))
    }
}

/// A command run twice in a row, as a user runs it: first with an empty
/// cache (what it compiles, compiled), then again with what it kept; each
/// round with folders of its own.
@MainActor
enum FirstAndKept {
    /// The seconds of each first run and each second one; nil when a run
    /// did not end with status 0.
    static func measure(_ arguments: [String], rounds: Int, folders: [String]) -> ([Double], [Double])? {
        var first: [Double] = []
        var again: [Double] = []
        defer { for name in folders { unsetenv(name) } }
        for _ in 0..<rounds {
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
                "opscope-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            // The helper passes its environment on.
            for name in folders { setenv(name, cache.path, 1) }
            for times in [0, 1] {
                guard let measured = MeasuringHelper.measure(Measure.opscopePath, arguments), measured.status == 0
                else { return nil }
                if times == 0 { first.append(measured.seconds) } else { again.append(measured.seconds) }
            }
        }
        return (first, again)
    }

    /// `6.0 s (5.9–6.0)`: the median, and the range of more than one.
    static func seconds(_ values: [Double], digits: Int) -> String {
        let one = "%.\(digits)f"
        return String(format: one + " s", Measure.median(values))
            + (values.count > 1 ? String(format: " (\(one)–\(one))", values.min() ?? 0, values.max() ?? 0) : "")
    }
}
