/// What a kata's failing check looks like on the board: for the checks a
/// scenario can show, the scenario, run with the user's class on the real
/// engine (`opscope kata NAME FILE --board`). The board shows what the
/// class did there, observed as any class of the user's is (its calls,
/// its getters, what Foundation was told): the check's verdict says the
/// rule, the board the run.
public struct KataBoard: Sendable {
    /// One check's scene.
    public struct Scene: Sendable {
        /// The body of the `init()` the scene makes the user's class with,
        /// in a subclass of it: `self.init(seconds: 0.5)`.
        public let makes: String
        /// The scenario's lines after its `code` lines; `{class}` is the
        /// class to make.
        public let lines: String

        public init(makes: String, lines: String) {
            self.makes = makes
            self.lines = lines
        }
    }

    /// By check, for the checks a scenario shows.
    public let scenes: [String: Scene]

    public init(scenes: [String: Scene]) { self.scenes = scenes }

    /// The class a scene makes: a subclass of the user's, with an `init()`.
    public static func subject(of className: String) -> String { "Kata" + className }

    /// The Swift file of the scene's subclass.
    public static func glue(_ scene: Scene, className: String) -> String {
        """
        // Written by opscope for the board of a kata's check: the class the
        // scenario makes, which is yours, made as the check makes it.
        class \(subject(of: className)): \(className) {
            convenience init() { \(scene.makes) }
        }

        """
    }

    /// The scenario of `check`'s scene, with the user's file and the glue
    /// (absolute paths, so that the scenario can be anywhere).
    public static func scenario(
        _ scene: Scene, check: KataCheck, kata: Kata, userFile: String, glueFile: String
    ) -> String {
        """
        title \(quoted("\(kata.name): \(check.title)"))
        note \(quoted("your \(kata.className), made as the check makes it, on the real engine"))
        code \(quoted(userFile))
        code \(quoted(glueFile))
        \(scene.lines.replacingOccurrences(of: "{class}", with: subject(of: kata.className)))

        """
    }

    /// A string of the language: `"…"`, with `\` and `"` escaped.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

extension Kata {
    /// The scenes of `async-operation`'s checks: the run, a cancel before
    /// the start (behind another operation on a serial queue), a cancel
    /// during the work, and the cap of 4 on 100 of them.
    static let asyncOperationBoard = KataBoard(scenes: [
        "runs": .init(
            makes: "self.init(seconds: 0.5)",
            lines: """
                queue work max 2
                op download on work class {class}
                op dependent on work work 100ms after download
                """),
        "cancelBeforeStart": .init(
            makes: "self.init(seconds: 2)",
            lines: """
                queue work serial
                op before on work work 500ms
                op download on work class {class}
                op dependent on work work 100ms after download
                at 200ms cancel download
                """),
        "cancelDuring": .init(
            makes: "self.init(seconds: 4)",
            lines: """
                queue work max 2
                op download on work class {class}
                op dependent on work work 100ms after download
                at 500ms cancel download
                """),
        "cap": .init(
            makes: "self.init(seconds: 0.2)",
            lines: "queue work max 4\n" + (1...100).map { "op d\($0) on work class {class}" }.joined(separator: "\n")),
    ])
}
