import Foundation

/// A function that maps an animated value to a transform (Apple's `CAValueFunction`): one number,
/// or three (an array) for `scale` and `translate`.
open class CAValueFunction: NSObject, NSSecureCoding, @unchecked Sendable {
    /// The function's name.
    open private(set) var name: CAValueFunctionName

    /// The function with the given name.
    public init?(name: CAValueFunctionName) {
        self.name = name
        super.init()
    }

    /// Creates the value function an archive names; nil when the archive has no name.
    public required init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: [NSString.self], forKey: "name") as? String else { return nil }
        self.name = CAValueFunctionName(rawValue: name)
        super.init()
    }

    /// True: value functions decode safely from a secure archive.
    open class var supportsSecureCoding: Bool { true }

    /// Archives the function's name.
    open func encode(with coder: NSCoder) { coder.encode(NSString(string: name.rawValue), forKey: "name") }
}
