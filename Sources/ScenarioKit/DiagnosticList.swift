/// The diagnostics of one stage (the lexer, the parser, the validator) as
/// it finds them: every one counted, only the first
/// `DiagnosticLimit.perFile` by location kept (equal locations in the
/// order found), which are all a file can show. A file of three million
/// wrong lines holds a hundred diagnostics, not three million.
struct DiagnosticList: Sendable, Equatable {
    /// At most twice the limit, in the order found until compacted.
    private var held: [Diagnostic] = []
    /// Once `held` was cut to the limit: the location of the last one
    /// kept. Anything found later at it or after it is never shown.
    private var cutAt: SourceLocation?
    private(set) var errorCount = 0
    private(set) var warningCount = 0

    init() {}

    /// Every diagnostic found (kept or not).
    var count: Int { errorCount + warningCount }
    var isEmpty: Bool { count == 0 }
    var hasErrors: Bool { errorCount > 0 }

    /// The diagnostics kept, by location (equal ones in the order found).
    var kept: [Diagnostic] {
        var copy = self
        copy.cut()
        return copy.held
    }

    mutating func append(_ diagnostic: Diagnostic) {
        if diagnostic.isError { errorCount += 1 } else { warningCount += 1 }
        keep(diagnostic)
    }

    /// `other`'s diagnostics, found after all of this list's.
    mutating func append(contentsOf other: DiagnosticList) {
        for diagnostic in other.kept { keep(diagnostic) }
        errorCount += other.errorCount
        warningCount += other.warningCount
    }

    private mutating func keep(_ diagnostic: Diagnostic) {
        if let cutAt, !(diagnostic.location < cutAt) { return }
        held.append(diagnostic)
        if held.count >= 2 * DiagnosticLimit.perFile { cut() }
    }

    /// Sorts what is held and keeps the first `perFile`.
    private mutating func cut() {
        let order = held.indices.sorted { a, b in
            held[a].location != held[b].location ? held[a].location < held[b].location : a < b
        }
        held = order.prefix(DiagnosticLimit.perFile).map { held[$0] }
        if held.count == DiagnosticLimit.perFile { cutAt = held.last?.location }
    }
}
