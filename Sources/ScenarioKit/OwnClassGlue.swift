/// What the watched subclass of a user's class reports to the run that
/// hosts it: each call of `start()`, `main()` and `cancel()` as it begins
/// and returns (on the calling thread), each answer of the flag getters,
/// and the object's end. The value is 1 or 0 for a getter's answer, else 0.
public enum OwnClassEvent: Int32, Sendable, CaseIterable {
    case startBegan = 1
    case startReturned
    case mainBegan
    case mainReturned
    case cancelBegan
    case cancelReturned
    case isExecutingSaid
    case isFinishedSaid
    case isReadySaid
    case released
}

/// The Swift file compiled with the user's `code` files into the library
/// a run loads (`dlopen`): for each class `TYPE` a scenario names, a
/// subclass that reports every call and answer to the run through a C
/// function (the library needs no module of opscope's), and a C-named
/// factory, `opscope_make_N`, that makes one and hands it over retained.
///
/// The subclass declares no initializer and gives its stored properties
/// defaults, so it inherits `TYPE()`; it overrides only what is `open` on
/// `Operation` (`willChangeValue`/`didChangeValue` are not: what Foundation
/// was told is read from its own state instead).
public struct OwnClassGlue: Sendable {
    /// The glue's file name, as the compiler's diagnostics give it.
    public static let fileName = "opscope-glue.swift"

    /// The C symbol of the factory of the `n`th type.
    public static func factorySymbol(_ n: Int) -> String { "opscope_make_\(n)" }

    /// The types, in the order of their first `class` clause (the `n` of
    /// each factory).
    public let types: [String]
    /// The glue's text.
    public let source: String

    public init(_ scenario: Scenario) {
        types = OwnClassProbe(scenario).types
        var text = """
            import Foundation

            /// The run's report function: (its context, the operation's index,
            /// the event, a value).
            public typealias OpscopeReport = @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, Int32) -> Void

            """
        for (n, type) in types.enumerated() { text += "\n" + Self.watched(type, n) }
        source = text
    }

    private static func watched(_ type: String, _ n: Int) -> String {
        func code(_ event: OwnClassEvent) -> String { String(event.rawValue) }
        return """
            final class OpscopeWatched\(n): \(type), @unchecked Sendable {
                var opscopeIndex: Int32 = -1
                var opscopeReport: OpscopeReport?
                var opscopeContext: UnsafeMutableRawPointer?

                func opscopeTell(_ event: Int32, _ value: Bool = false) {
                    opscopeReport?(opscopeContext, opscopeIndex, event, value ? 1 : 0)
                }

                override func start() {
                    opscopeTell(\(code(.startBegan)))
                    super.start()
                    opscopeTell(\(code(.startReturned)))
                }

                override func main() {
                    opscopeTell(\(code(.mainBegan)))
                    super.main()
                    opscopeTell(\(code(.mainReturned)))
                }

                override func cancel() {
                    opscopeTell(\(code(.cancelBegan)))
                    super.cancel()
                    opscopeTell(\(code(.cancelReturned)))
                }

                override var isExecuting: Bool {
                    let answer = super.isExecuting
                    opscopeTell(\(code(.isExecutingSaid)), answer)
                    return answer
                }

                override var isFinished: Bool {
                    let answer = super.isFinished
                    opscopeTell(\(code(.isFinishedSaid)), answer)
                    return answer
                }

                override var isReady: Bool {
                    let answer = super.isReady
                    opscopeTell(\(code(.isReadySaid)), answer)
                    return answer
                }

                deinit { opscopeTell(\(code(.released))) }
            }

            @_cdecl("\(factorySymbol(n))")
            public func opscopeMake\(n)(
                _ index: Int32, _ report: OpscopeReport, _ context: UnsafeMutableRawPointer?
            ) -> UnsafeMutableRawPointer {
                let operation = OpscopeWatched\(n)()
                operation.opscopeIndex = index
                operation.opscopeReport = report
                operation.opscopeContext = context
                return Unmanaged<Operation>.passRetained(operation).toOpaque()
            }

            """
    }
}
