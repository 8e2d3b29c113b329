extension Kata {
    /// The file compiled with every kata's harness (`kata-support.swift`):
    /// the clock, the line a check prints, a wait, and moments noted from
    /// any thread. A harness's own `main.swift` holds only its checks.
    public static let supportFileName = "kata-support.swift"

    public static let support = #"""
        import Foundation

        // Shared by the checks of every opscope kata: the clock, the report line,
        // the wait. Each check prints one line, "opscope-kata " and a JSON
        // object, once it is decided.

        let kataStart = DispatchTime.now()

        /// Seconds since `start` (by default, since the program's first look
        /// at the clock).
        func kataSeconds(since start: DispatchTime = kataStart) -> Double {
            Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        }

        /// Prints a check's outcome; `at` is seconds since `start`, the moment the
        /// check began (`kataSeconds()` then).
        func kataReport(_ check: String, _ outcome: String, at: Double? = nil, since start: Double = 0, count: Int? = nil) {
            var fields = ["\"check\":\"\(check)\"", "\"outcome\":\"\(outcome)\""]
            if let at { fields.append("\"at\":" + String(format: "%.3f", max(0, at - start))) }
            if let count { fields.append("\"count\":\(count)") }
            print("opscope-kata {" + fields.joined(separator: ",") + "}")
            fflush(stdout)
        }

        /// Polls `condition` every millisecond for up to `limit` seconds;
        /// whether it came true.
        func kataWait(_ limit: Double, _ condition: () -> Bool) -> Bool {
            let start = DispatchTime.now()
            while kataSeconds(since: start) < limit {
                if condition() { return true }
                usleep(1000)
            }
            return condition()
        }

        /// Moments noted from any thread, by name: the first of each is kept.
        final class KataLog: @unchecked Sendable {
            private let lock = NSLock()
            private var moments: [String: Double] = [:]
            func note(_ what: String) { lock.withLock { if moments[what] == nil { moments[what] = kataSeconds() } } }
            subscript(_ what: String) -> Double? { lock.withLock { moments[what] } }
            var count: Int { lock.withLock { moments.count } }
        }

        """#
}
