import CommandSupport
import Foundation

// A standard descriptor the caller closed (`opscope trace f >&-`) would be
// handed to the next file or pipe opened, and the trace written into it:
// give each one /dev/null first, before anything opens a descriptor.
StandardDescriptors.guardClosed()

// The executable stays thin: every subcommand is a small type in this
// target; `Opscope.run` picks one and turns its outcome into an exit code.
Opscope.main(Array(CommandLine.arguments.dropFirst()))
