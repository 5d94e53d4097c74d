/// A failure a `NullOutput` was told to produce.
public enum NullOutputError: Error, Equatable {
    /// `present` failed because `failingPresents` asked it to.
    case presentFailed
}
