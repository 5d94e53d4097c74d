import Foundation
import LaminaCore

/// Why a message could not be decoded. Each case names the field or value at fault.
public enum WireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message ended while reading `field`.
    case truncated(field: String)
    /// Bytes were left over after the last field of a message of `type`.
    case trailingBytes(type: String, count: Int)
    /// The message type number is not one this version knows.
    case unknownMessage(UInt16)
    /// The operation code inside a transaction is unknown.
    case unknownOperation(UInt8)
    /// The property code inside a set-property operation is unknown.
    case unknownProperty(UInt8)
    /// The class code of a `createLayer` names no layer class this version has (or is 0, which
    /// travels as the short form).
    case unknownLayerClass(UInt8)
    /// A string field is not valid UTF-8, or is longer than allowed.
    case badString(field: String)
    /// A count field exceeds its limit.
    case countTooLarge(field: String, count: Int, limit: Int)
    /// A field holds a code or value this version does not define.
    case badValue(field: String)
    /// The header's flags are not 0 (no flags are defined in version 1).
    case badFlags(UInt16)
    /// The header's length does not match the message's size.
    case lengthMismatch(declared: Int, actual: Int)

    /// A sentence naming the problem and the field at fault.
    public var description: String {
        switch self {
        case .truncated(let field): "truncated message: it ends inside field '\(field)'"
        case .trailingBytes(let type, let count): "\(count) unexpected trailing bytes after a '\(type)' message"
        case .unknownMessage(let t): "unknown message type \(t)"
        case .unknownOperation(let op): "unknown transaction operation \(op)"
        case .unknownProperty(let p): "unknown layer property code \(p)"
        case .unknownLayerClass(let c): "unknown layer class code \(c) in createLayer"
        case .badString(let field): "field '\(field)' is not valid UTF-8 or is too long"
        case .countTooLarge(let field, let count, let limit): "\(field) count \(count) exceeds the limit \(limit)"
        case .badValue(let field): "field '\(field)' holds an unknown code or value"
        case .badFlags(let flags): "header flags are \(flags); version 1 defines none (must be 0)"
        case .lengthMismatch(let declared, let actual):
            "header declares a \(declared)-byte payload but the message carries \(actual) bytes"
        }
    }
}
