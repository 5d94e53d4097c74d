/// A soak run that could not go on, with the reason.
struct SoakError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String

    init(_ description: String) { self.description = description }
}
