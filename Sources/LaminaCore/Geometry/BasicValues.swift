import Foundation

/// `fromValue`, `toValue` and `byValue` of a basic or spring animation.
public struct BasicValues: Sendable, Hashable {
    /// The start value (`fromValue`), or nil.
    public var from: AnimationValue?
    /// The end value (`toValue`), or nil.
    public var to: AnimationValue?
    /// The change relative to the start (`byValue`), or nil.
    public var by: AnimationValue?

    /// Creates the values.
    public init(from: AnimationValue? = nil, to: AnimationValue? = nil, by: AnimationValue? = nil) {
        self.from = from
        self.to = to
        self.by = by
    }

    /// The start and end values given the current underlying value (Core Animation's table):
    /// from+to, from+by (from → from+by), by+to (to−by → to), from (→ current), to (current →),
    /// by (current → current+by), none (current → current). All three set behaves as from+to.
    public func resolved(current: AnimationValue) -> (AnimationValue, AnimationValue) {
        switch (from, to, by) {
        case (let f?, let t?, _): (f, t)
        case (let f?, nil, let b?): (f, AnimationValue.add(f, b))
        case (nil, let t?, let b?): (AnimationValue.subtract(t, b), t)
        case (let f?, nil, nil): (f, current)
        case (nil, let t?, nil): (current, t)
        case (nil, nil, let b?): (current, AnimationValue.add(current, b))
        case (nil, nil, nil): (current, current)
        }
    }

    /// The values that are set.
    public var all: [AnimationValue] { [from, to, by].compactMap { $0 } }
}
