/// A misuse of `RecordingRenderer`.
public enum RecordingRendererError: Error, Equatable {
    /// The target was made by another renderer.
    case foreignTarget
}
