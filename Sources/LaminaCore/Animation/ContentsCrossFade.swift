/// A cross-fade between two contents images, as a presentation state carries it while an animation of
/// `contents` runs (decisions.md A2: a basic animation between two images renders as a cross-fade).
///
/// The layer draws `from` with weight `1 − progress` and its `contents` with weight `progress`.
public struct ContentsCrossFade: Sendable, Hashable {
    /// The client's id of the image being faded out (0: no image, only the new one fades in).
    public var from: UInt64
    /// How far the fade has got, 0...1: 0 shows only `from`, 1 only the layer's `contents`.
    public var progress: Double

    /// A fade from image `from` that has got to `progress`.
    public init(from: UInt64, progress: Double) {
        self.from = from
        self.progress = progress
    }
}
