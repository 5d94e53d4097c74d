import Foundation

/// An object that responds to an action triggered on a layer (Apple's `CAAction`).
///
/// Every `CAAnimation` is an action: running it adds it to the layer under the event's key.
/// `NSNull` is an action that does nothing; returning it from a delegate stops the search.
public protocol CAAction {
    /// Runs the action for the event `event` on `anObject` (the layer).
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}
