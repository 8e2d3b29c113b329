// swift-tools-version: 6.0
import PackageDescription

// opscope depends on nothing but the toolchain (and, from the interface
// issue on, the system library ncursesw). See DECISIONS.md.
let package = Package(
    name: "opscope",
    products: [
        .executable(name: "opscope", targets: ["opscope"]),
        .executable(name: "opscope-bench", targets: ["opscope-bench"]),
    ],
    targets: [
        // The project's words and widths: text width in cells, "did you
        // mean", how durations, moments and lists are spelt.
        .target(name: "TextKit"),
        // Foundation's rules, each stated once (which ready operation a
        // queue hands out next, the buckets, what a cap counts), free of
        // Foundation; each pinned to a probe in .ci/probes.
        .target(name: "FoundationRules"),
        .target(name: "ScenarioKit", dependencies: ["FoundationRules", "TextKit"]),
        .target(name: "RunEvents", dependencies: ["FoundationRules", "ScenarioKit", "TextKit"]),
        // A run written down and read back: the JSON Lines recording (its
        // schema, encoder and decoder) and the Trace Event Format export.
        .target(name: "RunFormats", dependencies: ["FoundationRules", "RunEvents", "ScenarioKit", "TextKit"]),
        .target(name: "LifecycleEngine", dependencies: ["FoundationRules", "ScenarioKit", "RunEvents", "TextKit"]),
        .target(name: "Board", dependencies: ["FoundationRules", "ScenarioKit", "RunEvents", "TextKit"]),
        // Judging a run: its expectations, a learner's quiz answer.
        .target(name: "Grading", dependencies: ["FoundationRules", "Board", "ScenarioKit", "RunEvents", "TextKit"]),
        // Practice: questions generated with a fixed answer and confirmed by
        // real runs; the practice record, its file and its scheduler.
        .target(
            name: "Practice",
            dependencies: [
                "FoundationRules", "Board", "Grading", "LifecycleEngine", "RunEvents", "ScenarioKit", "TextKit",
            ]),
        // Katas: exercises in writing Operation code, each a harness that
        // runs the user's class on the real engine, and what its checks mean.
        .target(name: "Katas", dependencies: ["TextKit"]),
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        .target(
            name: "Screen",
            dependencies: ["FoundationRules", "Board", "Grading", "ScenarioKit", "RunEvents", "TextKit"]),
        .target(name: "CursesBackend", dependencies: ["CNCurses", "Screen"]),
        // What the executables share: arguments, errors and exit statuses,
        // loading a file, spawning a process, serving the main queue.
        .target(
            name: "CommandSupport",
            dependencies: ["ScenarioKit", "RunEvents", "LifecycleEngine", "TextKit"]),
        // A trace of a run: its stream in a format, the report and the
        // status, written to the byte sink it is given.
        .target(
            name: "Tracing",
            dependencies: ["CommandSupport", "Board", "Grading", "ScenarioKit", "RunEvents", "RunFormats", "TextKit"]),
        // The interactive view: the terminal session, a scenario's run on
        // the board, the picker.
        .target(
            name: "Interactive",
            dependencies: [
                "CommandSupport", "ScenarioKit", "RunEvents", "RunFormats", "LifecycleEngine", "Board", "Grading",
                "Screen", "CursesBackend", "TextKit", "Practice", "Katas",
            ]),
        .executableTarget(
            name: "opscope",
            dependencies: [
                "CommandSupport", "Interactive", "ScenarioKit", "RunEvents", "RunFormats", "LifecycleEngine", "Board",
                "Grading", "Screen", "CursesBackend", "TextKit", "Tracing", "Practice", "Katas",
            ]
        ),
        // The project's speed and memory figures (a release build).
        .executableTarget(
            name: "opscope-bench",
            dependencies: [
                "CommandSupport", "ScenarioKit", "RunEvents", "LifecycleEngine", "Board", "Screen", "CursesBackend",
                "Interactive", "TextKit", "Practice",
            ]
        ),
        .testTarget(name: "TextKitTests", dependencies: ["TextKit", "EventFixtures"]),
        .testTarget(name: "FoundationRulesTests", dependencies: ["FoundationRules"]),
        .testTarget(name: "KatasTests", dependencies: ["Katas", "ScenarioKit", "TextKit"]),
        .testTarget(name: "ScenarioKitTests", dependencies: ["ScenarioKit", "EventFixtures"]),
        .testTarget(
            name: "LifecycleEngineTests",
            dependencies: [
                "FoundationRules",
                "LifecycleEngine", "RunEvents", "RunFormats", "Board", "ScenarioKit", "TextKit", "EventFixtures",
            ]
        ),
        // Test support shared by the test targets (not a test target itself).
        .target(
            name: "EventFixtures", dependencies: ["FoundationRules", "RunEvents", "RunFormats", "ScenarioKit"],
            path: "Tests/EventFixtures"
        ),
        .testTarget(
            name: "BoardTests",
            dependencies: ["FoundationRules", "Board", "RunEvents", "RunFormats", "ScenarioKit", "EventFixtures"],
            // Recordings of library runs, read by path: the pinned text timelines.
            exclude: ["Recordings"]),
        .testTarget(
            name: "GradingTests", dependencies: ["Grading", "Board", "RunEvents", "ScenarioKit", "EventFixtures"]),
        .testTarget(
            name: "ScreenTests",
            dependencies: ["Screen", "EventFixtures", "TextKit", "RunEvents", "RunFormats", "Grading"]),
        // The recording's schema, encoder and decoder, and the chrome export
        // (reads the recordings kept in BoardTests/Recordings by path).
        .testTarget(
            name: "RunFormatsTests", dependencies: ["RunFormats", "RunEvents", "ScenarioKit", "EventFixtures"]),
        .testTarget(name: "CursesBackendTests", dependencies: ["CursesBackend", "Screen"]),
        .testTarget(name: "CommandSupportTests", dependencies: ["CommandSupport", "ScenarioKit"]),
        .testTarget(
            name: "TracingTests",
            dependencies: [
                "Tracing", "CommandSupport", "Board", "RunEvents", "RunFormats", "ScenarioKit", "TextKit",
                "EventFixtures",
            ],
            // A recording and what each format writes of it, read by path.
            exclude: ["Snapshots"]),
        .testTarget(
            name: "PracticeTests",
            dependencies: [
                "FoundationRules", "Practice", "Board", "Grading", "LifecycleEngine", "RunEvents", "ScenarioKit",
            ]),
        .testTarget(
            name: "InteractiveTests",
            dependencies: ["Interactive", "Board", "RunEvents", "ScenarioKit", "Screen", "EventFixtures"]),
        .testTarget(
            name: "opscopeTests",
            dependencies: [
                "opscope", "Board", "CommandSupport", "Interactive", "ScenarioKit", "RunFormats", "Grading",
                "EventFixtures", "Practice", "Katas",
            ],
            // Scenario files of the tests' own, read by path.
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
