import LaminaCore

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
