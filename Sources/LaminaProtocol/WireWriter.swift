import Foundation
import LaminaCore

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
