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
