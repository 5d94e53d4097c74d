import CCairo
import Foundation

/// A coverage mask clipping a `CGContext` (from `clip(to:mask:)`): one alpha byte a device pixel.
///
/// Owns its Cairo A8 surface. Immutable once made, so saved graphics states share it.
final class ClipMask {
    /// The A8 surface, in Cairo device space (y down), the context's size.
    let surface: OpaquePointer

    /// Takes ownership of `surface`.
    init(surface: OpaquePointer) {
        self.surface = surface
    }

    deinit {
        cairo_surface_destroy(surface)
    }
}
