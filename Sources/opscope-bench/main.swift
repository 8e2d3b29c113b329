import CommandSupport
import Foundation

/// `opscope-bench [--quick] [--only engine|language|interface]`.
@MainActor
func status(_ arguments: [String]) -> ExitStatus {
    if arguments.first == MeasuringHelper.flag { return MeasuringHelper.run(Array(arguments.dropFirst())) }
    if arguments.contains("--help") || arguments.contains("-h") {
        print(BenchCommand.help)
        return .success
    }
    do throws(UsageError) {
        return try BenchCommand.run(arguments)
    } catch {
        return error.report()
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
// The bare engine exits by itself, without releasing its operations.
if arguments.first == BareProcess.flag { BareProcess.run(Array(arguments.dropFirst())) }
exit(status(arguments).code)
