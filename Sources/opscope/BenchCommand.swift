/// `opscope bench`: the project's speed and memory figures.
enum BenchCommand: Subcommand {
    static let name = "bench"
    static let abstract = "Measure opscope's overhead over the bare engine (build with -c release)"
    static let help = """
        USAGE: opscope bench

        Not built yet.
        """

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        _ = try Arguments(arguments)
        print("bench: not built yet")
        return ExitStatus.success
    }
}
