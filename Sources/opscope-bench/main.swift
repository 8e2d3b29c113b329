import CommandSupport
import Foundation

/// `opscope-bench [--quick] [--only engine|language|interface]`.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == BareProcess.flag { BareProcess.run(Array(arguments.dropFirst())) }
if arguments.first == MeasuringHelper.flag { MeasuringHelper.run(Array(arguments.dropFirst())) }
if arguments.contains("--help") || arguments.contains("-h") {
    print(BenchCommand.help)
    exit(ExitStatus.success)
}
do throws(UsageError) {
    exit(try BenchCommand.run(arguments))
} catch {
    exit(error.report())
}
