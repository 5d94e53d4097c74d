import Foundation

/// The instances of one draw kind as raw bytes, `stride` bytes each, in the order they were emitted.
///
/// Renderers copy these bytes into their vertex buffers without knowing the instance type; the kind's
/// `DrawKind.attributes` say what the bytes hold. A value type: copying a display list copies its
/// instances (on write).
public struct InstanceBuffer: Sendable, Equatable {
    /// Bytes per instance.
    public let stride: Int
    /// The instances' bytes, `count * stride` of them.
    public private(set) var bytes: [UInt8] = []
    /// The number of instances.
    public private(set) var count = 0

    /// An empty buffer of instances `stride` bytes long.
    public init(stride: Int) {
        self.stride = stride
    }

    /// Appends `instance`, whose type must be `stride` bytes long, and returns its index.
    @discardableResult
    public mutating func append<Instance>(_ instance: Instance) -> Int {
        assert(MemoryLayout<Instance>.stride == stride, "instance type does not match the kind's stride")
        withUnsafeBytes(of: instance) { bytes.append(contentsOf: $0) }
        count += 1
        return count - 1
    }

    /// Appends instance `other` of `source`, a buffer of the same stride, and returns its index.
    @discardableResult
    public mutating func append(_ other: Int, of source: InstanceBuffer) -> Int {
        precondition(source.stride == stride && other >= 0 && other < source.count)
        let start = other * stride
        source.bytes.withUnsafeBytes {
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[start..<(start + stride)]))
        }
        count += 1
        return count - 1
    }

    /// Appends instances `range` of `source`, a buffer of the same stride.
    public mutating func append(_ range: Range<Int>, of source: InstanceBuffer) {
        precondition(source.stride == stride && range.lowerBound >= 0 && range.upperBound <= source.count)
        source.bytes.withUnsafeBytes {
            bytes.append(
                contentsOf: UnsafeRawBufferPointer(
                    rebasing: $0[(range.lowerBound * stride)..<(range.upperBound * stride)]))
        }
        count += range.count
    }

    /// Reserves room for `count` instances in all.
    public mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count * stride)
    }

    /// Overwrites instance `index` with instance `other` of `source`, a buffer of the same stride.
    public mutating func replace(_ index: Int, with other: Int, of source: InstanceBuffer) {
        precondition(source.stride == stride && index >= 0 && index < count && other >= 0 && other < source.count)
        let stride = stride
        bytes.withUnsafeMutableBytes { target in
            source.bytes.withUnsafeBytes { from in
                target.baseAddress!.advanced(by: index * stride).copyMemory(
                    from: from.baseAddress!.advanced(by: other * stride), byteCount: stride)
            }
        }
    }

    /// Whether instance `index` holds the same bytes as instance `other` of `source`.
    public func same(_ index: Int, as other: Int, of source: InstanceBuffer) -> Bool {
        guard source.stride == stride else { return false }
        return bytes.withUnsafeBytes { p in
            source.bytes.withUnsafeBytes { q in
                memcmp(p.baseAddress! + index * stride, q.baseAddress! + other * stride, stride) == 0
            }
        }
    }

    /// Removes every instance, keeping the storage for the next ones.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        count = 0
    }

    /// Instance `index`, read as `Instance` (which must be the type it was appended as).
    public func instance<Instance>(_ index: Int, as type: Instance.Type) -> Instance {
        precondition(index >= 0 && index < count, "instance index out of range")
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * stride, as: type) }
    }

    /// Every instance, read as `Instance`: for tests and tools.
    public func instances<Instance>(as type: Instance.Type) -> [Instance] {
        (0..<count).map { instance($0, as: type) }
    }
}
