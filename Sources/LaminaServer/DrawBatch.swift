/// A run of instances of one draw kind, drawn with one pipeline and one draw call.
public struct DrawBatch: Sendable, Equatable {
    /// The kind's `DrawKind.id`: its index in `DrawKind.all` and in `DisplayList.instances`.
    public var kind: Int
    /// Indices into the kind's `InstanceBuffer`, in draw order.
    public var instances: [Int32]

    /// A batch of `instances` of kind `kind`.
    public init(kind: Int, instances: [Int32]) {
        self.kind = kind
        self.instances = instances
    }
}
