import TextKit

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
            } else if flags.contains(name) {
                guard inlineValue == nil else { throw UsageError("'--\(name)' takes no value, not '\(argument)'") }
                self.flags.insert(name)
            } else {
                throw UsageError.unknownOption(
                    argument, suggestion: Suggestion.nearest(to: name, in: (options.union(flags)).sorted()))
            }
        }
    }

    package func value(_ name: String) -> String? { values[name] }
    package func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A speed given to `--name` (`--speed`): a plain decimal number
    /// (`2`, `0.25`, `.5`; no sign, exponent, hexadecimal, `inf` or `nan`)
    /// within `range`, or `fallback` when the option is absent.
    package func speed(_ name: String, in range: ClosedRange<Double>, default fallback: Double) throws(UsageError)
        -> Double
    {
        try speed(name, in: range) ?? fallback
    }

    /// A speed given to `--name`; nil when the option is absent (so that a
    /// caller can tell "not given" from any value).
    package func speed(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
        let bounds = "\(Self.decimal(range.lowerBound)) to \(Self.decimal(range.upperBound))"
        guard Self.isPlainDecimal(text), let number = Double(text), range.contains(number) else {
            throw UsageError("'--\(name)' is a decimal number from \(bounds), not '\(text)'")
        }
        return number
    }

    /// The value of `--name`, one of `choices` (`--format text|jsonl`), or
    /// `fallback` when the option is absent.
    package func choice(_ name: String, among choices: [String], default fallback: String) throws(UsageError)
        -> String
    {
        let text = value(name) ?? fallback
        guard !choices.contains(text) else { return text }
        let quoted = choices.map { "'\($0)'" }
        let named =
            quoted.count < 2
            ? quoted.joined() : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
        throw UsageError("'--\(name)' is \(named), not '\(text)'")
    }

    /// A whole number option within `range`, digits only; `fallback` when absent.
    package func whole(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(UsageError) -> Int {
        guard let text = value(name) else { return fallback }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let n = Int(text), range.contains(n)
        else {
            throw UsageError(
                "'--\(name)' is a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// Digits with at most one decimal point, and at least one digit.
    static func isPlainDecimal(_ text: String) -> Bool {
        var digits = 0
        var points = 0
        for ch in text {
            if ch.isASCII && ch.isNumber {
                digits += 1
            } else if ch == "." {
                points += 1
            } else {
                return false
            }
        }
        return digits > 0 && points <= 1 && digits <= 12
    }

    /// `0.01`, `1000`: a bound as a person writes it.
    static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
