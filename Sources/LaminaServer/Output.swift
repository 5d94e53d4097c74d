import LaminaCore

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
