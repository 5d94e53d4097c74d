import Foundation
import LaminaCore

extension String {
    /// The longest prefix of the string whose UTF-8 form has at most `maxBytes` bytes, cut at a
    /// character boundary.
    public func truncatedToUTF8(_ maxBytes: Int) -> String {
        guard utf8.count > maxBytes else { return self }
        var end = utf8.index(utf8.startIndex, offsetBy: maxBytes)
        while end > startIndex && String.Index(end, within: self) == nil { end = utf8.index(before: end) }
        return String(self[..<end])
    }
}

/// Little-endian appender for wire messages.
public struct WireWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    public init() {}

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func f64(_ v: Double) { u64(v.bitPattern) }
    public mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }
    public mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        u32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }
    public mutating func point(_ p: CGPoint) { f64(Double(p.x)); f64(Double(p.y)) }
    public mutating func rect(_ r: CGRect) {
        f64(Double(r.origin.x)); f64(Double(r.origin.y)); f64(Double(r.size.width)); f64(Double(r.size.height))
    }
    public mutating func color(_ c: RGBAColor) { f64(c.red); f64(c.green); f64(c.blue); f64(c.alpha) }
    public mutating func transform(_ t: CATransform3D) {
        for v in [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                  t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44] { f64(Double(v)) }
    }
}

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

    public var description: String {
        switch self {
        case .truncated(let field): "truncated message: it ends inside field '\(field)'"
        case .trailingBytes(let type, let count): "\(count) unexpected trailing bytes after a '\(type)' message"
        case .unknownMessage(let t): "unknown message type \(t)"
        case .unknownOperation(let op): "unknown transaction operation \(op)"
        case .unknownProperty(let p): "unknown layer property code \(p)"
        case .badString(let field): "field '\(field)' is not valid UTF-8 or is too long"
        case .countTooLarge(let field, let count, let limit): "\(field) count \(count) exceeds the limit \(limit)"
        case .badValue(let field): "field '\(field)' holds an unknown code or value"
        case .badFlags(let flags): "header flags are \(flags); version 1 defines none (must be 0)"
        case .lengthMismatch(let declared, let actual):
            "header declares a \(declared)-byte payload but the message carries \(actual) bytes"
        }
    }
}

/// Bounds-checked little-endian reader; every read names the field it reads for error messages.
public struct WireReader: Sendable {
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    public private(set) var offset: Int

    /// Reads `bytes` from `offset`.
    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The number of bytes not yet read.
    public var remaining: Int { bytes.count - offset }

    private mutating func take(_ n: Int, _ field: String) throws(WireError) -> ArraySlice<UInt8> {
        guard n >= 0, remaining >= n else { throw .truncated(field: field) }
        defer { offset += n }
        return bytes[offset..<offset + n]
    }

    private mutating func integer<T: FixedWidthInteger>(_: T.Type, _ field: String) throws(WireError) -> T {
        let slice = try take(MemoryLayout<T>.size, field)
        var v: T = 0
        for (i, b) in slice.enumerated() { v |= T(b) << (8 * i) }
        return v
    }

    public mutating func u8(_ field: String) throws(WireError) -> UInt8 { try integer(UInt8.self, field) }
    public mutating func u16(_ field: String) throws(WireError) -> UInt16 { try integer(UInt16.self, field) }
    public mutating func u32(_ field: String) throws(WireError) -> UInt32 { try integer(UInt32.self, field) }
    public mutating func u64(_ field: String) throws(WireError) -> UInt64 { try integer(UInt64.self, field) }
    public mutating func f64(_ field: String) throws(WireError) -> Double { Double(bitPattern: try u64(field)) }
    public mutating func bool(_ field: String) throws(WireError) -> Bool { try u8(field) != 0 }

    /// A length-prefixed UTF-8 string of at most `limit` bytes.
    public mutating func string(_ field: String, limit: Int) throws(WireError) -> String {
        let count = Int(try u32(field))
        guard count <= limit else { throw .badString(field: field) }
        let slice = try take(count, field)
        guard let s = String(validating: slice, as: UTF8.self) else { throw .badString(field: field) }
        return s
    }

    /// A count prefix, checked against `limit` and against the bytes left (each element needs at least
    /// `minimumElementSize` bytes), so a hostile count cannot make the reader allocate.
    public mutating func count(_ field: String, limit: Int, minimumElementSize: Int) throws(WireError) -> Int {
        let n = Int(try u32(field))
        guard n <= limit else { throw .countTooLarge(field: field, count: n, limit: limit) }
        guard n * minimumElementSize <= remaining else { throw .truncated(field: field) }
        return n
    }

    public mutating func point(_ field: String) throws(WireError) -> CGPoint {
        CGPoint(x: try f64(field + ".x"), y: try f64(field + ".y"))
    }
    public mutating func rect(_ field: String) throws(WireError) -> CGRect {
        CGRect(x: try f64(field + ".origin.x"), y: try f64(field + ".origin.y"),
               width: try f64(field + ".size.width"), height: try f64(field + ".size.height"))
    }
    public mutating func color(_ field: String) throws(WireError) -> RGBAColor {
        RGBAColor(red: try f64(field + ".red"), green: try f64(field + ".green"),
                  blue: try f64(field + ".blue"), alpha: try f64(field + ".alpha"))
    }
    public mutating func transform(_ field: String) throws(WireError) -> CATransform3D {
        var v = [CGFloat]()
        v.reserveCapacity(16)
        for i in 0..<16 { v.append(CGFloat(try f64("\(field).m\(i / 4 + 1)\(i % 4 + 1)"))) }
        return CATransform3D(m11: v[0], m12: v[1], m13: v[2], m14: v[3], m21: v[4], m22: v[5], m23: v[6],
                             m24: v[7], m31: v[8], m32: v[9], m33: v[10], m34: v[11], m41: v[12], m42: v[13],
                             m43: v[14], m44: v[15])
    }
}
