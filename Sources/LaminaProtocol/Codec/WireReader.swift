import Foundation
import LaminaCore

/// Bounds-checked little-endian reader; every read names the field it reads for error messages (the
/// name is built only when an error needs it, so a read costs no string work).
public struct WireReader: Sendable {
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    public private(set) var offset: Int
    /// The last timing curve read and the bits of the control points it was made from: the curves
    /// of a commit's animation records are mostly one curve, made once (`curve(_:)`).
    var lastCurve: (bits: SIMD4<UInt32>, curve: TimingCurve)?

    /// Reads `bytes` from `offset`.
    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The number of bytes not yet read.
    public var remaining: Int { bytes.count - offset }

    private mutating func take(_ n: Int, _ field: @autoclosure () -> String) throws(WireError) -> ArraySlice<UInt8> {
        guard n >= 0, remaining >= n else { throw .truncated(field: field()) }
        defer { offset += n }
        return bytes[offset..<offset + n]
    }

    private mutating func integer<T: FixedWidthInteger>(_: T.Type, _ field: @autoclosure () -> String) throws(WireError)
        -> T
    {
        // Loaded straight from the bytes (no slice of them, which would retain the array per read).
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw .truncated(field: field()) }
        let v = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        offset += size
        return T(littleEndian: v)
    }

    /// Reads an unsigned byte; `field` names it in errors.
    public mutating func u8(_ field: @autoclosure () -> String) throws(WireError) -> UInt8 {
        try integer(UInt8.self, field())
    }
    /// Reads a little-endian `UInt16`; `field` names it in errors.
    public mutating func u16(_ field: @autoclosure () -> String) throws(WireError) -> UInt16 {
        try integer(UInt16.self, field())
    }
    /// Reads a little-endian `UInt32`; `field` names it in errors.
    public mutating func u32(_ field: @autoclosure () -> String) throws(WireError) -> UInt32 {
        try integer(UInt32.self, field())
    }
    /// Reads a little-endian `UInt64`; `field` names it in errors.
    public mutating func u64(_ field: @autoclosure () -> String) throws(WireError) -> UInt64 {
        try integer(UInt64.self, field())
    }
    /// Reads a `Double` as its little-endian IEEE 754 bits; `field` names it in errors.
    public mutating func f64(_ field: @autoclosure () -> String) throws(WireError) -> Double {
        Double(bitPattern: try u64(field()))
    }
    /// Reads a `Bool` as one byte (1 or 0; any non-zero byte reads as true); `field` names it in errors.
    public mutating func bool(_ field: @autoclosure () -> String) throws(WireError) -> Bool { try u8(field()) != 0 }

    /// A length-prefixed UTF-8 string of at most `limit` bytes.
    public mutating func string(_ field: @autoclosure () -> String, limit: Int) throws(WireError) -> String {
        let count = Int(try u32(field()))
        guard count <= limit else { throw .badString(field: field()) }
        let slice = try take(count, field())
        guard let s = String(validating: slice, as: UTF8.self) else { throw .badString(field: field()) }
        return s
    }

    /// A count prefix, checked against `limit` and against the bytes left (each element needs at least
    /// `minimumElementSize` bytes), so a hostile count cannot make the reader allocate.
    public mutating func count(_ field: @autoclosure () -> String, limit: Int, minimumElementSize: Int)
        throws(WireError) -> Int
    {
        let n = Int(try u32(field()))
        guard n <= limit else { throw .countTooLarge(field: field(), count: n, limit: limit) }
        guard n * minimumElementSize <= remaining else { throw .truncated(field: field()) }
        return n
    }

    /// Reads a point as two `f64`s (x, y); `field` names it in errors.
    public mutating func point(_ field: @autoclosure () -> String) throws(WireError) -> CGPoint {
        CGPoint(x: try f64(field() + ".x"), y: try f64(field() + ".y"))
    }
    /// Reads a rectangle as four `f64`s (origin x, y, width, height); `field` names it in errors.
    public mutating func rect(_ field: @autoclosure () -> String) throws(WireError) -> CGRect {
        CGRect(
            x: try f64(field() + ".origin.x"), y: try f64(field() + ".origin.y"),
            width: try f64(field() + ".size.width"), height: try f64(field() + ".size.height"))
    }
    /// Reads a colour as four `f64`s (red, green, blue, alpha); `field` names it in errors.
    public mutating func color(_ field: @autoclosure () -> String) throws(WireError) -> RGBAColor {
        RGBAColor(
            red: try f64(field() + ".red"), green: try f64(field() + ".green"),
            blue: try f64(field() + ".blue"), alpha: try f64(field() + ".alpha"))
    }
    /// Reads a transform as sixteen `f64`s, `m11` to `m44` row by row; `field` names it in errors.
    public mutating func transform(_ field: @autoclosure () -> String) throws(WireError) -> CATransform3D {
        var v = [CGFloat]()
        v.reserveCapacity(16)
        for i in 0..<16 { v.append(CGFloat(try f64("\(field()).m\(i / 4 + 1)\(i % 4 + 1)"))) }
        return CATransform3D(
            m11: v[0], m12: v[1], m13: v[2], m14: v[3], m21: v[4], m22: v[5], m23: v[6],
            m24: v[7], m31: v[8], m32: v[9], m33: v[10], m34: v[11], m41: v[12], m42: v[13],
            m43: v[14], m44: v[15])
    }
}
