import Foundation

/// A function that maps an animated value to a transform (Apple's `CAValueFunction`): one number,
/// or three (an array) for `scale` and `translate`.
open class CAValueFunction: NSObject, @unchecked Sendable {
    /// The function's name.
    open private(set) var name: CAValueFunctionName

    /// The function with the given name.
    public init?(name: CAValueFunctionName) {
        self.name = name
        super.init()
    }
}
