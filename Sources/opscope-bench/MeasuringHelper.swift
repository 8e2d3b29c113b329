import CommandSupport
import Foundation

/// `opscope-bench --measure PROGRAM ARGS…`: runs the program and prints
/// `STATUS SECONDS PEAK_BYTES` on one line.
///
/// Why a helper: on Linux a child's `ru_maxrss` counts the memory of the
/// process that spawned it, as it was when the child called exec (checked:
/// `/bin/true` spawned by a 300 MB process reports 320 MB). The benchmark
/// itself holds 200 MB after its engine section, so each process it
/// measures is spawned by this small, fresh helper instead, and its peak
/// is its own.
enum MeasuringHelper {
    static let flag = "--measure"

    static func run(_ arguments: [String]) -> ExitStatus {
        guard let program = arguments.first, let measured = try? Spawn.measure(program, Array(arguments.dropFirst()))
        else {
            FileHandle.standardError.write(Data("usage: opscope-bench \(flag) PROGRAM ARGS...\n".utf8))
            return .usage
        }
        print("\(measured.status) \(measured.seconds) \(measured.peakResidentBytes)")
        return .success
    }

    /// Measures `path arguments` through the helper; nil when it cannot.
    static func measure(_ path: String, _ arguments: [String]) -> (status: Int32, seconds: Double, peak: Int)? {
        guard let (status, output) = try? Spawn.run(selfPath, [flag, path] + arguments, captureOutput: true),
            status == 0
        else { return nil }
        let fields = output.split(whereSeparator: \.isWhitespace)
        guard fields.count == 3, let code = Int32(fields[0]), let seconds = Double(fields[1]),
            let peak = Int(fields[2])
        else { return nil }
        return (code, seconds, peak)
    }

    static let selfPath =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
}
