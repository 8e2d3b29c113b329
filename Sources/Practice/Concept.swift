/// What a question is about: the ideas of `Operation` a learner's progress
/// is counted by. The raw value is the word in the practice file.
public enum Concept: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case dependencies
    case priority
    case qos
    case cancellation
    case cap
    case barriers
    case async
    case completionBlocks = "completion-blocks"
    case suspension
    case mainThread = "main-thread"

    /// How a person reads it: `QoS`, `completion blocks`.
    public var title: String {
        switch self {
        case .dependencies: "dependencies"
        case .priority: "priority"
        case .qos: "QoS"
        case .cancellation: "cancellation"
        case .cap: "cap"
        case .barriers: "barriers"
        case .async: "async"
        case .completionBlocks: "completion blocks"
        case .suspension: "suspension"
        case .mainThread: "main thread"
        }
    }

    /// The order of `allCases`, which is the order progress is shown in.
    public static func < (a: Concept, b: Concept) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
