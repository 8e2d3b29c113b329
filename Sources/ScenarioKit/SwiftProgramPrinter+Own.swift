// The program's part for the user's own classes (`class TYPE`).

extension SwiftProgramPrinter {
    /// The subclass that watches the user's class `type` (`class TYPE`): it
    /// adds only what the end report reads, and inherits every initializer
    /// (it declares none, and its one property has a default).
    static func watched(_ type: String) -> String {
        """
        /// Your class \(type), unchanged but for what the report needs: it
        /// prints `start NAME` when its start() is called on an operation not
        /// cancelled. What it does from there is your code's.
        final class Watched\(type): \(type), RecordsItsStart, @unchecked Sendable {
            let started = StartRecord()

            override func start() {
                if !isCancelled { started.mark(name ?? "?") }
                super.start()
            }
        }
        """
    }

    /// `path` as one word for a POSIX shell: as it is when it holds only
    /// letters, digits and `._/-`, single-quoted otherwise (with the
    /// characters a terminal acts on made spaces: it goes into a comment).
    static func shellWord(_ path: String) -> String {
        let plain =
            !path.isEmpty
            && path.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "._/-".unicodeScalars.contains($0)
            }
        if plain { return path }
        let text = SwiftIdentifiers.commentText(path)
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
