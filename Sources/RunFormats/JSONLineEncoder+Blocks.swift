import RunEvents
import ScenarioKit

/// A wait of the main thread that blocked it longer than 100 ms, as a
/// trace's JSON Lines sum it up after the `end` line: a summary of the
/// `wait` lines before, not an event (it has no `seq`).
public struct MainThreadBlockRecord: Sendable, Hashable {
    /// `wait OP` or `wait-all QUEUE`.
    public var action: Action
    /// When the main thread began the wait (scenario seconds, its `wait`
    /// line's `started`).
    public var began: Double
    /// When the wait returned; nil: it never did.
    public var returned: Double?
    /// How long it blocked the main thread: to its return, or to the run's
    /// end for one that never returned.
    public var seconds: Double
    /// The line of the `at` statement that asked for it, when known.
    public var line: Int?

    public init(action: Action, began: Double, returned: Double?, seconds: Double, line: Int?) {
        self.action = action
        self.began = began
        self.returned = returned
        self.seconds = seconds
        self.line = line
    }
}

/// The keys of a `main-blocked` line, in the order they are written.
enum BlockField: CaseIterable, Sendable {
    case kind, t, until, seconds, action, target, line

    /// As written, after the value before it: `,"until":`.
    var member: StaticString {
        switch self {
        case .kind: #"{"kind":"#
        case .t: #","t":"#
        case .until: #","until":"#
        case .seconds: #","seconds":"#
        case .action: #","action":"#
        case .target: #","target":"#
        case .line: #","line":"#
        }
    }

    var name: String { Schema.name(inMember: member) }

    /// The value of `kind` in such a line.
    static let blockKind: StaticString = #""main-blocked""#
}

extension JSONLineEncoder {
    /// `{"kind":"main-blocked","t":0.101,"until":1.805,"seconds":1.704,
    /// "action":"wait","target":"export","line":11}`, `"until":null` for a
    /// wait that never returned; `line` only when known.
    public func appendMainThreadBlock(_ block: MainThreadBlockRecord, to out: inout [UInt8]) {
        for field in BlockField.allCases {
            switch field {
            case .kind:
                out.appendLiteral(field.member)
                out.appendLiteral(BlockField.blockKind)
            case .t:
                out.appendLiteral(field.member)
                JSONBytes.appendSeconds(block.began, to: &out)
            case .until:
                out.appendLiteral(field.member)
                if let returned = block.returned {
                    JSONBytes.appendSeconds(returned, to: &out)
                } else {
                    out.appendLiteral("null")
                }
            case .seconds:
                out.appendLiteral(field.member)
                JSONBytes.appendSeconds(block.seconds, to: &out)
            case .action:
                // `,"action":"wait","target":"export"`
                appendAction(block.action, to: &out)
            case .target:
                break
            case .line:
                guard let line = block.line else { continue }
                out.appendLiteral(field.member)
                JSONBytes.appendInt(line, to: &out)
            }
        }
        out.appendLiteral("}\n")
    }
}
