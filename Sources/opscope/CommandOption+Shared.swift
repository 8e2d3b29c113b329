import CommandSupport

/// Options that more than one command takes, with the same words.
extension CommandOption {
    static let ascii = flag("ascii", "draw with ASCII characters only")
    static let noColor = flag("no-color", "no colours (also when NO_COLOR is set)")
    /// `quiz` and `practice`: the answer given on the command line.
    static let answer = value("answer", "TEXT", "the answer, instead of reading standard input")
    /// `quiz` and `practice`: the question asked on standard output.
    static let text = flag("text", "on a terminal, ask here rather than on the board")

    /// `--speed X`: scenario seconds per real second, then what the command
    /// says of it (its default).
    static func speed(_ then: String) -> CommandOption {
        value("speed", "X", "scenario seconds per real second " + then)
    }
}
