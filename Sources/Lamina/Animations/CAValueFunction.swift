import Foundation

/// A function that maps an animated value to a transform (Apple's `CAValueFunction`): one number,
/// or three (an array) for `scale` and `translate`.
///
/// `CAValueFunction(name:)` returns nil for a name Core Animation does not know (an empty one
/// included) and the same shared instance every time for the same name, as on Apple platforms.
open class CAValueFunction: NSObject, CAValueFunctionNamed, NSSecureCoding, @unchecked Sendable {
    /// The function's name.
    open private(set) var name: CAValueFunctionName

    /// The shared instance for each known name.
    static let shared: [CAValueFunctionName: CAValueFunction] = Dictionary(
        uniqueKeysWithValues: CAValueFunctionName.known.map { ($0, CAValueFunction(known: $0)) })

    /// Creates the one instance of a known function.
    private init(known name: CAValueFunctionName) {
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

/// What lets `CAValueFunction(name:)` return a shared instance: a Swift class initialiser cannot,
/// an initialiser of a protocol extension can. Not meant to be adopted by other types.
public protocol CAValueFunctionNamed {}

extension CAValueFunctionNamed {
    /// The function with the given name: the same instance for the same name, nil for a name that
    /// is not one of `CAValueFunctionName`'s constants.
    public init?(name: CAValueFunctionName) {
        guard let function = CAValueFunction.shared[name] as? Self else { return nil }
        self = function
    }
}
