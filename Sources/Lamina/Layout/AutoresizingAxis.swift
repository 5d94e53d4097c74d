import Foundation

/// Which parts of one axis give way when a superlayer's size changes: the margin before the layer,
/// its size, the margin after it (three bits of `CAAutoresizingMask`).
///
/// The rule is Apple's, as GNUstep's QuartzCore tests observed it on macOS (issue 24): the size
/// takes a third of the change when a margin gives way too, all of it alone; the margins that give
/// way share the rest equally. For a layer at x 10, width 50 in a superlayer growing from 100 to 200
/// with a flexible leading margin and width, the margin takes 66⅔ and the width 33⅓: (76, 84) once
/// rounded.
struct AutoresizingAxis: Equatable {
    var before: Bool
    var size: Bool
    var after: Bool

    /// The axis of `mask` whose bits start at `shift` (0 for x, 3 for y); nil when none is set.
    init?(mask: UInt32, shift: UInt32) {
        before = mask & (1 << shift) != 0
        size = mask & (1 << (shift + 1)) != 0
        after = mask & (1 << (shift + 2)) != 0
        guard before || size || after else { return nil }
    }

    /// The origin and size along the axis after the superlayer's extent went from `old` to `new`.
    ///
    /// The leading margin is the origin; the trailing margin is what is left of the old extent. The
    /// new origin is rounded down to a whole point and the size takes up the slack to the trailing
    /// margin, rounded up (so a change of 10 shared two thirds and one third gives 6 and 4).
    func resize(origin: CGFloat, size extent: CGFloat, from old: CGFloat, to new: CGFloat) -> (CGFloat, CGFloat) {
        let delta = new - old
        guard delta != 0, delta.isFinite else { return (origin, extent) }
        let margins = (before ? 1 : 0) + (after ? 1 : 0)
        let sizeShare = size ? (margins > 0 ? delta / 3 : delta) : 0
        let marginShare = margins > 0 ? (delta - sizeShare) / CGFloat(margins) : 0
        let leading = origin + (before ? marginShare : 0)
        let trailing = (old - origin - extent) + (after ? marginShare : 0)
        let x = leading.rounded(.down)
        return (x, (new - x - trailing).rounded(.up))
    }
}
