import CommandSupport
import Foundation

// The executable stays thin: every subcommand is a small type in this
// target; `Opscope.run` picks one and turns its outcome into an exit code.
Opscope.main(Array(CommandLine.arguments.dropFirst()))
