import LaminaServer

/// An output with no screen: frames are drawn into an offscreen image, which captures read back.
///
/// Selected by `--output offscreen:WIDTHxHEIGHT@HZ`. Its frame clock is the server's timer at `HZ`.
public final class OffscreenOutput: Output {
    public let mode: DisplayMode
    let renderer: any Renderer
    let visible: any RenderTarget
    let scratch: any RenderTarget

    /// Creates the output's images on `renderer`.
    public init(mode: DisplayMode, renderer: any Renderer) throws {
        self.mode = mode
        self.renderer = renderer
        visible = try renderer.makeTarget(width: mode.width, height: mode.height)
        scratch = try renderer.makeTarget(width: mode.width, height: mode.height)
    }

    public func present(_ list: DisplayList) throws {
        try renderer.render(list, into: visible)
    }

    public func capture(_ list: DisplayList) throws -> Bitmap {
        try renderer.render(list, into: scratch)
        return try renderer.readPixels(scratch)
    }

    /// The last presented frame's pixels.
    public func readPresented() throws -> Bitmap {
        try renderer.readPixels(visible)
    }
}

/// Parses an output specification such as `offscreen:1280x720@60`.
public enum OutputSpecification {
    /// The kind and mode named by `text`, or a message saying what is wrong with it.
    public static func parse(_ text: String) throws(OutputSpecificationError) -> (kind: String, mode: DisplayMode) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw .init("expected KIND:WIDTHxHEIGHT@HZ such as offscreen:1280x720@60, got '\(text)'") }
        guard parts[0] == "offscreen" else {
            throw .init("unknown output kind '\(parts[0])'; this build supports 'offscreen'")
        }
        let sizeAndRate = parts[1].split(separator: "@").map(String.init)
        let size = sizeAndRate[0].split(separator: "x").compactMap { Int($0) }
        let rate = sizeAndRate.count > 1 ? Double(sizeAndRate[1]) : 60
        guard sizeAndRate.count <= 2, size.count == 2, let rate, rate > 0, rate <= 1000,
              (1...16384).contains(size[0]), (1...16384).contains(size[1]) else {
            throw .init("bad mode '\(parts[1])': expected WIDTHxHEIGHT@HZ with sizes 1...16384 and 0 < HZ <= 1000")
        }
        return (parts[0], DisplayMode(width: size[0], height: size[1], refreshRate: rate))
    }
}

/// A malformed `--output` value.
public struct OutputSpecificationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
