/// Messages the screen says in more than one place, written once.
enum ScreenWords {
    /// A key that acts on the selected operation, with none selected; the
    /// inspector's empty state.
    static let noOperationSelected = "no operation selected"
    /// A key that moves the selection, with no operation shown to move to.
    static let noOperationToSelect = "no operation to select"
    /// A key that acts on the selected queue, with none selected.
    static let noQueueSelected = "no queue selected"
    /// A step back from the run's first moment.
    static let startOfRun = "this is the start of the run"
    /// A move through the history before anything happened.
    static let nothingYet = "nothing has happened yet: the history starts with the run"
    /// The same in a replay of a recording without events.
    static let emptyRecording = "the recording holds no notification"
    /// A view or a search of a scenario without operations.
    static let noOperations = "this scenario has no operation"
    /// The timeline of a run that has none to show.
    static let noTimeline = "no timeline for this run"
}
