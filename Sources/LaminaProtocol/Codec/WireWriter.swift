import Foundation
import LaminaCore

/// Little-endian appender for wire messages.
public struct WireWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    public init() {}

    /// Empties the writer, keeping its storage for the next bytes.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Makes room for `count` bytes in all, so the writes that follow do not grow the storage.
    public mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

    /// Appends the bytes another writer wrote.
    public mutating func append(_ other: WireWriter) { bytes.append(contentsOf: other.bytes) }

    /// Appends an unsigned byte.
    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    /// Appends a little-endian `UInt16`.
    public mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    /// Appends a little-endian `UInt32`.
    public mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    /// Appends a little-endian `Int32` (two's complement).
    public mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    /// Appends a little-endian `UInt64`.
    public mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    /// Appends a `Double` as its little-endian IEEE 754 bits.
    public mutating func f64(_ v: Double) { u64(v.bitPattern) }
    /// Appends a `Bool` as one byte (1 or 0; any non-zero byte reads as true).
    public mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }
    /// Appends a string as a `u32` byte count and its UTF-8 bytes.
    public mutating func string(_ s: String) {
        // The bytes are appended straight from the string's view: no array of them is built.
        u32(UInt32(s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }
    /// Appends a point as two `f64`s (x, y).
    public mutating func point(_ p: CGPoint) { f64(Double(p.x)); f64(Double(p.y)) }
    /// Appends a rectangle as four `f64`s (origin x, y, width, height).
    public mutating func rect(_ r: CGRect) {
        f64(Double(r.origin.x)); f64(Double(r.origin.y)); f64(Double(r.size.width)); f64(Double(r.size.height))
    }
    /// Appends a colour as four `f64`s (red, green, blue, alpha).
    public mutating func color(_ c: RGBAColor) { f64(c.red); f64(c.green); f64(c.blue); f64(c.alpha) }
    /// Appends a transform as sixteen `f64`s, `m11` to `m44` row by row.
    public mutating func transform(_ t: CATransform3D) {
        for v in [
            t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
            t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44,
        ] { f64(Double(v)) }
    }
}
