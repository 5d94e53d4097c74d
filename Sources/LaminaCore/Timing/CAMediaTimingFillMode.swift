import Foundation

/// What a timed object shows outside its active interval.
///
/// String-backed like Apple's `CAMediaTimingFillMode`, with the same raw values. The fill mode
/// decides whether the object still has an effect before it starts (`backwards`, `both`) and
/// after it ends (`forwards`, `both`); with `removed` it has none outside the active interval.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    /// The fill mode's name, as Core Animation spells it.
    public let rawValue: String

    /// Wraps a fill-mode name. Unknown names behave like `removed`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a fill-mode name without an argument label. Unknown names behave like `removed`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// No effect outside the active interval (the default).
    public static let removed = CAMediaTimingFillMode("removed")
    /// After the end, keep showing the state reached at the end of the active interval.
    public static let forwards = CAMediaTimingFillMode("forwards")
    /// Before the start, already show the state at the start of the active interval.
    public static let backwards = CAMediaTimingFillMode("backwards")
    /// Both `backwards` and `forwards`.
    public static let both = CAMediaTimingFillMode("both")

    /// True when the object has an effect before its start (`backwards` or `both`).
    public var fillsBackwards: Bool { self == .backwards || self == .both }

    /// True when the object has an effect after its end (`forwards` or `both`).
    public var fillsForwards: Bool { self == .forwards || self == .both }
}
