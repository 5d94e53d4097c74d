import LaminaProtocol

/// Names an image a renderer imported with `Renderer.importImage(_:filtering:)`.
///
/// Values are unique per renderer and never reused while it lives.
public struct RenderImageID: Hashable, Sendable, CustomStringConvertible {
    /// The renderer's number for the image.
    public let rawValue: UInt64

    /// Wraps a renderer's number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// "image N".
    public var description: String { "image \(rawValue)" }
}
