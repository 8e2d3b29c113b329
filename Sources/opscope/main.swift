import CommandSupport
import CursesBackend
import Foundation

// A standard descriptor the caller closed (`opscope trace f >&-`) would be
// handed to the next file or pipe opened, and the trace written into it:
// give each one /dev/null first, before anything opens a descriptor.
StandardDescriptors.guardClosed()

// Every command ends on SIGINT, SIGTERM, SIGHUP and SIGQUIT with 128 + the
// signal, whatever it is doing: the watch asks it to stop (a read of
// standard input or the main queue's service returns), and ends the
// process itself if it is still there half a second later. Started before
// anything else, so that no signal finds its default action (SIGQUIT's is
// the runtime's crash report) and ncurses leaves these signals to it. A
// trace and the interface take the signals for themselves while they run.
SignalWatch.start { event in
    guard let number = SignalWatch.signalNumber(for: event) else { return }
    StopRequest.process.request(signal: number)
}

// The executable stays thin: every subcommand is a small type in this
// target; `Opscope.run` picks one and turns its outcome into an exit code.
Opscope.main(Array(CommandLine.arguments.dropFirst()))
