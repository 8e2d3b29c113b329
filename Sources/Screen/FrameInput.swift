import Board

/// The values of one frame that are not interface state: what the loop
/// knows at the moment it draws (or handles a key). Rebuilt every frame;
/// nothing here survives to the next one.
public struct FrameInput: Sendable {
    /// Scenario seconds now, for the clock and the progress bars.
    public var now: Double
    /// Real (monotonic) seconds from any fixed origin, for the expiry of
    /// transient messages: they must fade while the scenario is paused and
    /// must not flash by at ×64, so they cannot use scenario time.
    public var wallClock: Double
    /// Scenario seconds per real second.
    public var speed: Double
    public var isPaused: Bool
    /// The terminal, in cells.
    public var size: Size
    public var glyphs: GlyphSet
    /// false: no colours at all (styles keep bold / dim / reverse).
    public var colors: Bool
    /// Observer notifications as `EventFormatter.logLine` prints them, oldest first.
    public var logLines: [String]
    /// The verdicts of the `expect` lines once the run ended; nil while it runs.
    public var expectationResults: [ExpectationResult]?
    /// Real seconds the main thread was blocked by a `main` queue operation
    /// during the run, when that happened (the interface froze meanwhile).
    public var mainThreadBlocked: Double?

    public init(
        now: Double = 0, wallClock: Double? = nil, speed: Double = 1, isPaused: Bool = false,
        size: Size, glyphs: GlyphSet = .unicode, colors: Bool = true, logLines: [String] = [],
        expectationResults: [ExpectationResult]? = nil, mainThreadBlocked: Double? = nil
    ) {
        self.now = now
        self.wallClock = wallClock ?? now
        self.speed = speed
        self.isPaused = isPaused
        self.size = size
        self.glyphs = glyphs
        self.colors = colors
        self.logLines = logLines
        self.expectationResults = expectationResults
        self.mainThreadBlocked = mainThreadBlocked
    }

    var ascii: Bool { glyphs != .unicode }
}
