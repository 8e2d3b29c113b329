import LifecycleEngine
import ScenarioKit

/// PLACEHOLDER: the board module replaces this file.
public struct BoardState: Sendable {
    public var scenario: Scenario
    public init(scenario: Scenario) { self.scenario = scenario }
}
