/// An exercise in writing `Operation` code: the user writes a class in a
/// Swift file, and the kata's checks run that class on this Foundation's
/// own `OperationQueue` and grade what it did (`opscope kata`).
///
/// A kata is a table: what to write, a starting file, the checks with the
/// rule each one holds the class to, and the harness (a Swift program
/// compiled with the user's file) that runs the checks and prints one
/// line for each (`KataLine`). What a line means for the user is said
/// here, in `KataCheck`, not in the harness: the harness only observes.
public struct Kata: Sendable {
    /// What the command line names it by: `async-operation`.
    public let name: String
    /// One line, for the list of katas.
    public let title: String
    /// What to write, in a paragraph: the class, its initializer, what it
    /// must do.
    public let task: String
    /// The class the user's file must declare.
    public let className: String
    /// What the harness needs of the file, said when it cannot compile
    /// with it: "it must declare …".
    public let requirement: String
    /// The starting file `opscope kata NAME` writes when there is none:
    /// it compiles, and fails its checks.
    public let starter: String
    /// The program that runs the checks: the `main.swift` compiled with
    /// the user's file.
    public let harness: String
    /// The second program, when the kata has a thread-sanitizer check: it
    /// runs many instances while other threads read their flags, compiled
    /// with `-sanitize=thread`; its check is `raceCheck`, graded from the
    /// sanitizer's report (`RaceReport`), after the harness's checks.
    public let raceHarness: RaceHarness?
    /// The checks, in the order they are run: the harness's, then the
    /// race check when there is one.
    public let checks: [KataCheck]
    /// The most real time the harness may take, every check failing
    /// included; past it the program is stopped.
    public let timeLimit: Double
    /// What it is about, as the practice record counts progress: the
    /// words of Practice's `Concept` (`async`, `completion-blocks`).
    public let concepts: [String]
    /// Its checks' scenes for the board (`KataBoard`), for those a
    /// scenario shows.
    public var board: KataBoard? = nil

    /// Every kata, in the order `opscope kata` lists them.
    public static let all: [Kata] = [asyncOperation, resultPassing, groupOperation, cancellableTask, mainThread]

    /// The kata called `name`, if there is one.
    public static func named(_ name: String) -> Kata? { all.first { $0.name == name } }

    /// The file `opscope kata NAME` writes and reads when given no file.
    public var starterFileName: String { name + ".swift" }

    /// The check with this identifier (as the harness prints it).
    public func check(_ id: String) -> KataCheck? { checks.first { $0.id == id } }

    /// The identifier of the check the race harness decides.
    public static let raceCheck = "flagsSafe"

    /// The rule an asynchronous operation breaks when Foundation never
    /// learns that it finished: the katas' `neverFinished` outcomes.
    static let finishTold = """
        An asynchronous operation finishes by posting willChangeValue/didChangeValue(forKey: \
        "isFinished") (and "isExecuting") around the change; this Foundation learns of a \
        finish only from didChangeValue, and until then whatever depends on it waits.
        """
}

/// A kata's race program and how many operations it runs (each of which
/// must finish for the check to pass without a race).
public struct RaceHarness: Sendable {
    public let program: String
    public let operations: Int
}
