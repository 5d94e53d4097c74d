import LaminaCore

/// Pixels read back from a render target: premultiplied BGRA, 8 bits per channel, rows top to bottom.
public struct Bitmap: Sendable {
    public var width: Int
    public var height: Int
    /// Bytes per row.
    public var stride: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, stride: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }

    /// The pixel at (x, y) as (red, green, blue, alpha).
    public func rgba(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = y * stride + x * 4
        return (pixels[i + 2], pixels[i + 1], pixels[i], pixels[i + 3])
    }
}

/// An image a renderer draws into, owned by the renderer that made it.
public protocol RenderTarget: AnyObject {
    var width: Int { get }
    var height: Int { get }
}

/// Draws display lists. The server knows the renderer only through this protocol.
///
/// All methods are called on the server's render thread, never concurrently. `render` is mandatory
/// and synchronous: when it returns without throwing, the target holds the frame and `readPixels`
/// returns it.
public protocol Renderer: AnyObject {
    /// A short description of the device, for logs (for example "llvmpipe (LLVM 15.0.6, 256 bits)").
    var deviceName: String { get }
    /// Makes a target of the given size in pixels.
    func makeTarget(width: Int, height: Int) throws -> any RenderTarget
    /// Clears `target` to the list's clear colour and draws every batch in order.
    func render(_ list: DisplayList, into target: any RenderTarget) throws
    /// Copies the target's pixels to host memory.
    func readPixels(_ target: any RenderTarget) throws -> Bitmap
}

/// The mode of an output: its size in pixels and refresh rate in hertz.
public struct DisplayMode: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var refreshRate: Double
    public init(width: Int, height: Int, refreshRate: Double) {
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
    }
    public var description: String { "\(width)x\(height)@\(refreshRate.formatted())" }
}

/// Where frames go: an offscreen image, a KMS plane, a window.
///
/// Called on the server's render thread only. `present` is mandatory: it draws the list and shows it;
/// when it returns, the frame counts as presented. `capture` draws a list without presenting it.
public protocol Output: AnyObject {
    /// The output's current mode.
    var mode: DisplayMode { get }
    /// Draws `list` and makes it the visible frame.
    func present(_ list: DisplayList) throws
    /// Draws `list` off to the side and returns its pixels; the visible frame is unchanged.
    func capture(_ list: DisplayList) throws -> Bitmap
}

extension Double {
    func formatted() -> String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
