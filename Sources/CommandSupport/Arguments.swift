/// A tiny parser for `--flag`, `--option VALUE` / `--option=VALUE` and
/// positional arguments. Unknown options are errors, never ignored.
package struct Arguments {
    package var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// - Parameters:
    ///   - options: names (without `--`) that take a value.
    ///   - flags: names that take none.
    package init(_ arguments: [String], options: Set<String> = [], flags: Set<String> = []) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.drop { $0 == "-" })
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if options.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < arguments.count {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    throw UsageError("option '--\(name)' needs a value")
                }
            } else if flags.contains(name), inlineValue == nil {
                self.flags.insert(name)
            } else {
                throw UsageError.unknownOption(argument)
            }
        }
    }

    package func value(_ name: String) -> String? { values[name] }
    package func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A positive, finite number given to `--name`, or `fallback` when the
    /// option is absent.
    package func positiveNumber(_ name: String, default fallback: Double) throws(UsageError) -> Double {
        try positiveNumber(name) ?? fallback
    }

    /// A positive, finite number given to `--name`; nil when the option is
    /// absent (so that a caller can tell "not given" from any value).
    package func positiveNumber(_ name: String) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let number = Double(text), number.isFinite, number > 0 else {
            throw UsageError("'--\(name)' needs a positive number, not '\(text)'")
        }
        return number
    }
}
