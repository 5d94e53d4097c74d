/// The window output could not be made or used: no X display, a failed connection, a closed window.
public struct WindowOutputError: Error, CustomStringConvertible {
    /// What went wrong, naming the X display or call where there is one.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
