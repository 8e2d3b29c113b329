import CommandSupport

/// `opscope help [COMMAND]`.
enum HelpCommand: Subcommand {
    static let spec = CommandSpec(
        name: "help", abstract: "Show help for opscope or one of its commands", usage: [["help", "[COMMAND]"]],
        about: "Without a command, lists the commands; with one, shows its options.")

    static func run(_ arguments: [String]) throws(UsageError) -> ExitStatus {
        let args = try spec.parse(arguments)
        guard let name = args.positionals.first else {
            print(Opscope.overview)
            return .success
        }
        guard args.positionals.count == 1 else {
            throw UsageError("'help' takes one command name")
        }
        guard let command = Opscope.subcommands.first(where: { $0.name == name }) else {
            throw UsageError.unknownCommand(name)
        }
        print(command.help)
        return .success
    }
}
