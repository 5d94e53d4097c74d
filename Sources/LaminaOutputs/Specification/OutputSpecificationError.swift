/// A malformed `--output` value.
public struct OutputSpecificationError: Error, CustomStringConvertible {
    /// What is wrong with the value, naming it.
    public let description: String
    init(_ description: String) { self.description = description }
}
