extension SwiftProgramPrinter {
    /// A caption as a sentence for a comment of the program:
    /// `at 100ms, the lesson says: …`, `when parse is cancelled, the lesson says: …`.
    static func captionText(_ caption: Caption, in scenario: Scenario) -> String {
        let moment: String
        switch caption.trigger {
        case .at(let time):
            moment = "at \(ScenarioPrinter.format(time))"
        case .when(let op, let when):
            let name = scenario[operation: op].name
            switch when {
            case .ready: moment = "when \(name) becomes ready"
            case .starts: moment = "when \(name) starts"
            case .finishes: moment = "when \(name) finishes"
            case .cancelled: moment = "when \(name) is cancelled"
            }
        }
        return "\(moment), the lesson says: \(caption.text)"
    }

    /// Why the program runs in real time although the scenario asks for a speed.
    static func speedComment(_ speed: Double, promisedUpTo: Double? = nil) -> String {
        "The scenario asks opscope's interactive view for speed \(ScenarioPrinter.speedText(speed)) (scenario "
            + "seconds per real second) when no --speed is given. This program has no scenario clock: it runs in "
            + "real time."
            + (promisedUpTo.map {
                " Its expectations are promised up to speed \(ScenarioPrinter.speedText($0)): what they claim "
                    + "depends on real time."
            } ?? "")
    }

    static let captionsExplanation =
        "The lesson's captions: opscope's interactive view shows each one when the run reaches it (in lesson mode it "
        + "pauses there until Space). This program only keeps them as comments."
}
