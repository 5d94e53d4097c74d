import Foundation

/// The `CAMediaTiming` values of a layer that only the client uses (the render server needs
/// `beginTime`, `timeOffset` and `speed`, which live in `LayerState`), with Core Animation's defaults.
struct LayerLocalTiming {
    var duration: CFTimeInterval = .infinity
    var repeatCount: Float = 0
    var repeatDuration: CFTimeInterval = 0
    var autoreverses = false
    var fillMode: CAMediaTimingFillMode = .removed
}
