import ScenarioKit

extension Scenario {
    /// The name of an operation for messages; a placeholder for an index the
    /// scenario does not have, so a malformed event never traps.
    func opName(_ id: OperationID) -> String {
        operations.indices.contains(id.index) ? operations[id.index].name : "operation #\(id.index)"
    }

    /// The name of a queue for messages (see `opName`).
    func queueName(_ id: QueueID) -> String {
        queues.indices.contains(id.index) ? queues[id.index].name : "queue #\(id.index)"
    }

    func contains(_ id: OperationID) -> Bool { operations.indices.contains(id.index) }
    func contains(_ id: QueueID) -> Bool { queues.indices.contains(id.index) }

    /// `a, b and c`, for sentences that name several operations.
    func opNames(_ ids: [OperationID]) -> String {
        let names = ids.map(opName)
        switch names.count {
        case 0: return "nothing"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
    }
}

/// Scenario seconds as the reports print them: `1.201s`.
func formatSeconds(_ t: Double) -> String {
    // Rounded by hand: `rounded()` would need libm, which the pure module does not link.
    let scaled = t * 1000
    let ms = Int(scaled >= 0 ? scaled + 0.5 : scaled - 0.5)
    let sign = ms < 0 ? "-" : ""
    let whole = abs(ms) / 1000
    let frac = abs(ms) % 1000
    let fracText = String(frac)
    return "\(sign)\(whole).\(String(repeating: "0", count: 3 - fracText.count))\(fracText)s"
}
