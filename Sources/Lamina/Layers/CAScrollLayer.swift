import Foundation

/// The directions a `CAScrollLayer` scrolls in: Core Animation's `CAScrollLayerScrollMode`. A name
/// Lamina does not know is kept as given and scrolls in no direction.
public struct CAScrollLayerScrollMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a mode name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a mode name without an argument label.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Scrolling changes nothing.
    public static let none = CAScrollLayerScrollMode("none")
    /// Only the vertical origin (y) changes.
    public static let vertically = CAScrollLayerScrollMode("vertically")
    /// Only the horizontal origin (x) changes.
    public static let horizontally = CAScrollLayerScrollMode("horizontally")
    /// Both origins change (the default).
    public static let both = CAScrollLayerScrollMode("both")
}

/// A layer that shows part of its sublayers and scrolls over them: Core Animation's
/// `CAScrollLayer`. Scrolling sets `bounds.origin` (so it animates implicitly, as any bounds change
/// does, unless actions are disabled); the sublayers, placed in the bounds' coordinates, move the
/// other way. Like any layer it shows sublayers outside its bounds unless `masksToBounds` is set.
/// `scrollMode` is kept by the client (it is not drawn), under Core Animation's key, so key-value
/// coding, `defaultValue(forKey:)` and archiving see it.
open class CAScrollLayer: CALayer {
    /// The directions `scroll(to:)` moves in; `.both` by default.
    open var scrollMode: CAScrollLayerScrollMode {
        get { (kvcValue(forKey: "scrollMode") as? String).map { CAScrollLayerScrollMode(rawValue: $0) } ?? .both }
        set { kvcSetValue(newValue.rawValue, forKey: "scrollMode") }
    }

    /// Scrolls so that `p`, in the layer's own coordinates, becomes the origin of its bounds, in the
    /// directions `scrollMode` allows.
    open func scroll(to p: CGPoint) {
        var origin = bounds.origin
        switch scrollMode {
        case .both: origin = p
        case .horizontally: origin.x = p.x
        case .vertically: origin.y = p.y
        default: return
        }
        guard origin != bounds.origin, origin.x.isFinite, origin.y.isFinite else { return }
        bounds.origin = origin
    }

    /// Scrolls as little as makes `r`, in the layer's own coordinates, visible in its bounds: an
    /// edge of `r` outside the bounds is brought to the nearest edge; a rectangle larger than the
    /// bounds shows its minimum edge.
    open func scroll(to r: CGRect) {
        let visible = bounds
        guard !r.isNull, !r.isInfinite else { return }
        func axis(_ lower: CGFloat, _ upper: CGFloat, _ start: CGFloat, _ length: CGFloat) -> CGFloat {
            if lower < start || upper - lower > length { return lower }
            if upper > start + length { return upper - length }
            return start
        }
        let x = axis(r.minX, r.maxX, visible.minX, visible.width)
        let y = axis(r.minY, r.maxY, visible.minY, visible.height)
        scroll(to: CGPoint(x: x, y: y))
    }

    /// The scroll layer's own keys: `scrollMode` reads `both` by default (Core Animation's
    /// `kCAScrollBoth`), else the layer's defaults.
    open override class func defaultValue(forKey key: String) -> Any? {
        key == "scrollMode" ? CAScrollLayerScrollMode.both.rawValue : super.defaultValue(forKey: key)
    }
}
