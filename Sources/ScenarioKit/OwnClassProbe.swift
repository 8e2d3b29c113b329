import TextKit

/// What a scenario's `class TYPE` asks of the user's code, checked by the
/// compiler itself: a small Swift file that uses each type the way
/// opscope's programs do, type-checked with the `code` files. Each use is
/// on a line of its own, so the line of an error says which requirement a
/// type misses; each is said at the `class` clause that names the type.
///
/// A type must be a class (1), not `final` (1: opscope's programs watch it
/// through a subclass), visible to another file (1: not `private`), an
/// `Operation` subclass (2) and made by `TYPE()` (3).
public struct OwnClassProbe: Sendable {
    /// The probe's file name, as the compiler's diagnostics give it.
    public static let fileName = "opscope-class-probe.swift"

    /// The types, in the order of their first `class` clause.
    public let types: [String]
    /// The probe's text.
    public let source: String

    /// The probe of every class `scenario` names.
    public init(_ scenario: Scenario) {
        var types: [String] = []
        for op in scenario.operations {
            if let type = op.body.customClass, !types.contains(type) { types.append(type) }
        }
        self.types = types
        var lines = ["import Foundation", ""]
        for (n, type) in types.enumerated() {
            lines += [
                "final class OpscopeProbe\(n): \(type), @unchecked Sendable {}",
                "func opscopeIsOperation\(n)() -> Operation.Type { OpscopeProbe\(n).self }",
                "func opscopeMake\(n)() -> Operation { OpscopeProbe\(n)() }",
            ]
        }
        source = lines.joined(separator: "\n") + "\n"
    }

    /// The first requirement each type misses, as diagnostics at the
    /// `class` clauses that name it, from what the compiler said of the
    /// probe. `files` names the `code` files, for the messages.
    public func diagnostics(from compiler: [CompilerDiagnostic], in scenario: Scenario, files: String) -> [Diagnostic] {
        var firstError: [Int: CompilerDiagnostic] = [:]
        for found in compiler where found.file == Self.fileName && found.severity == "error" {
            let n = (found.line - 3) / 3
            guard types.indices.contains(n), found.line >= 3 else { continue }
            if let kept = firstError[n], kept.line <= found.line { continue }
            firstError[n] = found
        }
        var result: [Diagnostic] = []
        for (id, location) in scenario.classLocations.sorted(by: { $0.value < $1.value }) {
            guard let type = scenario[operation: id].body.customClass, let n = types.firstIndex(of: type),
                let error = firstError[n]
            else { continue }
            result.append(
                Self.diagnostic(
                    type, requirement: (error.line - 3) % 3, said: error.message, files: files, at: location))
        }
        return result
    }

    private static func diagnostic(
        _ type: String, requirement: Int, said: String, files: String, at location: SourceLocation
    ) -> Diagnostic {
        let swiftc = "swiftc: " + said
        switch requirement {
        case 0 where said.contains("cannot find type"):
            return .error("no class \(type) in \(files)", at: location, notes: [swiftc])
        case 0 where said.contains("final"):
            return .error(
                "\(type) is final", at: location,
                notes: ["opscope watches your class through a subclass of it: remove 'final'", swiftc])
        case 0 where said.contains("inaccessible"):
            return .error(
                "\(type) is not visible outside its file", at: location,
                notes: ["opscope's code is another file: remove 'private' or 'fileprivate'", swiftc])
        case 0 where said.contains("non-class"):
            return .error("\(type) is not a class", at: location, notes: [swiftc])
        case 0:
            return .error("\(type) cannot be subclassed", at: location, notes: [swiftc])
        case 1:
            // swiftc's words name the probe's own subclass: not the user's.
            return .error(
                "\(type) is not an Operation subclass", at: location,
                notes: ["declare it as 'class \(type): Operation' (or a subclass of one)"])
        default:
            return .error(
                "\(type) cannot be made with \(type)()", at: location,
                notes: ["each operation is made with an init without arguments", swiftc])
        }
    }
}
