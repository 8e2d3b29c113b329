import CommandSupport
import Foundation

/// `opscope-bench [--quick] [--only SECTION] …` (`BenchCommand.spec`).
@MainActor
func status(_ arguments: [String]) -> ExitStatus {
    // The bare engine exits by itself once run, without releasing its
    // operations.
    if arguments.first == BareProcess.flag { return BareProcess.run(Array(arguments.dropFirst())) }
    if arguments.first == FloorProcess.flag { return FloorProcess.run(Array(arguments.dropFirst())) }
    if arguments.first == MeasuringHelper.flag { return MeasuringHelper.run(Array(arguments.dropFirst())) }
    if arguments.first == DispatchCostBench.flag { return DispatchCostBench.child(Array(arguments.dropFirst())) }
    if arguments.contains("--help") || arguments.contains("-h") {
        print(BenchCommand.spec.help)
        return .success
    }
    do throws(UsageError) {
        return try BenchCommand.run(arguments)
    } catch {
        return error.report()
    }
}

exit(status(Array(CommandLine.arguments.dropFirst())).code)
