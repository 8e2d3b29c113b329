/// Messages the screen says in more than one place, written once.
enum ScreenWords {
    /// A key that acts on the selected operation, with none selected; the
    /// inspector's empty state.
    static let noOperationSelected = "no operation selected"
}
