import CommandSupport
import Foundation
import Testing

/// Running a program to its end or to a time limit: real /bin/sh scripts,
/// with bounds generous enough for a busy machine.
@Suite struct ChildProcessTests {
    private func sh(
        _ script: String, timeout: Double = 60, keep: Int = ChildProcess.defaultKeep,
        lines: ((String) -> Void)? = nil
    ) throws -> ChildProcess.Outcome {
        try ChildProcess.run("/bin/sh", ["-c", script], timeout: timeout, keep: keep, lines: lines)
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// True once `pid` is no process, or one that has ended and waits only
    /// to be reaped by whoever inherited it; waits up to 10 s for that.
    private func isGone(_ pid: pid_t) -> Bool {
        for _ in 0..<200 {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")"), stat[close...].hasPrefix(") Z")
            {
                return true
            }
            usleep(50_000)
        }
        return false
    }

    @Test func theExitStatusAndStandardOutputAreKept() throws {
        let outcome = try sh("echo hello; exit 3")
        #expect(outcome.status == .exited(3))
        #expect(text(outcome.stdout) == "hello\n")
        #expect(outcome.stderr.isEmpty)
        #expect(!outcome.stdoutCut && !outcome.stderrCut)
    }

    @Test func standardErrorIsKeptApart() throws {
        let outcome = try sh("echo out; echo 'oops: no such thing' >&2; exit 1")
        #expect(outcome.status == .exited(1))
        #expect(text(outcome.stdout) == "out\n")
        #expect(text(outcome.stderr) == "oops: no such thing\n")
    }

    @Test func aCrashIsAnOutcomeNotAnError() throws {
        let outcome = try sh("kill -SEGV $$")
        #expect(outcome.status == .signalled(SIGSEGV))
        #expect(outcome.status.description == "signal 11")
    }

    @Test func aChildPastItsTimeIsKilledWithWhatItStarted() throws {
        // The shell starts a sleeper, says its pid, and waits for it.
        let outcome = try sh("sleep 30 & echo $!; wait", timeout: 0.5)
        #expect(outcome.status == .timedOut(afterSeconds: 0.5))
        #expect(outcome.seconds >= 0.5 && outcome.seconds < 10)
        let pid = try #require(pid_t(text(outcome.stdout).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(isGone(pid), "the sleeper was in the shell's group and went with it")
    }

    @Test func aStopAskedForEndsTheRunAtOnceWithWhatItStarted() throws {
        let stop = StopRequest()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { stop.request(signal: SIGINT) }
        let outcome = try ChildProcess.run("/bin/sh", ["-c", "sleep 30 & echo $!; wait"], timeout: 60, stop: stop)
        #expect(outcome.status == .stopped)
        #expect(outcome.seconds < 10)
        let pid = try #require(pid_t(text(outcome.stdout).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(isGone(pid))
    }

    @Test func whatAChildLeavesRunningIsKilledWhenItEnds() throws {
        // The sleeper holds the pipes open: without the group's kill, the
        // run would last until the time limit.
        let outcome = try sh("sleep 30 & echo $!", timeout: 20)
        #expect(outcome.status == .exited(0))
        #expect(outcome.seconds < 10)
        let pid = try #require(pid_t(text(outcome.stdout).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(isGone(pid))
    }

    @Test func megabytesOnBothStreamsAtOnceDoNotBlock() throws {
        let outcome = try sh("head -c 5000000 /dev/zero & head -c 5000000 /dev/zero >&2; wait", timeout: 120)
        #expect(outcome.status == .exited(0))
        #expect(outcome.stdout.count == 5_000_000)
        #expect(outcome.stderr.count == 5_000_000)
        #expect(!outcome.stdoutCut && !outcome.stderrCut)
    }

    @Test func outputPastWhatIsKeptIsReadAndDropped() throws {
        let outcome = try sh("head -c 300000 /dev/zero; echo done >&2", keep: 1000)
        #expect(outcome.status == .exited(0), "the child never blocked on a full pipe")
        #expect(outcome.stdout.count == 1000 && outcome.stdoutCut)
        #expect(text(outcome.stderr) == "done\n" && !outcome.stderrCut)
    }

    @Test func eachLineOfStandardOutputIsPassedInOrder() throws {
        var seen: [String] = []
        let outcome = try sh("printf 'one\\ntwo\\n\\nthree'; echo not-a-line >&2") { seen.append($0) }
        #expect(outcome.status == .exited(0))
        #expect(seen == ["one", "two", "", "three"])
        #expect(text(outcome.stdout) == "one\ntwo\n\nthree")
    }

    @Test func aLineIsPassedWhenItComesNotAtTheEnd() throws {
        var arrivals: [(String, UInt64)] = []
        let outcome = try sh("echo first; sleep 2; echo second") {
            arrivals.append(($0, DispatchTime.now().uptimeNanoseconds))
        }
        let ended = DispatchTime.now().uptimeNanoseconds
        #expect(outcome.status == .exited(0))
        try #require(arrivals.map(\.0) == ["first", "second"])
        #expect(ended - arrivals[0].1 > 500_000_000, "the first line came while the child slept")
    }

    @Test func theEnvironmentAndFolderAreTheOnesGiven() throws {
        let outcome = try ChildProcess.run(
            "/bin/sh", ["-c", "pwd; echo \"$GREETING\""], environment: ["GREETING": "hi there"],
            workingDirectory: "/", timeout: 60)
        #expect(text(outcome.stdout) == "/\nhi there\n")
    }

    @Test func aProgramThatCannotStartThrowsSayingWhich() {
        #expect {
            _ = try ChildProcess.run("/nonexistent/program", [], timeout: 10)
        } throws: { error in
            "\(error)" == "cannot start /nonexistent/program: No such file or directory"
        }
        #expect {
            _ = try ChildProcess.run("/bin/sh", ["-c", "true"], workingDirectory: "/nonexistent/folder", timeout: 10)
        } throws: { error in
            "\(error)" == "cannot start /bin/sh: no folder /nonexistent/folder"
        }
    }
}
