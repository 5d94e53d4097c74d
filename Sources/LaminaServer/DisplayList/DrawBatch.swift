/// A run of instances of one draw kind, drawn with one pipeline and one draw call.
public struct DrawBatch: Sendable, Equatable {
    /// The kind's `DrawKind.id`: its index in `DrawKind.all` and in `DisplayList.instances`.
    public var kind: Int
    /// Indices into the kind's `InstanceBuffer`, in draw order.
    public var instances: [Int32]
    /// What a batch of a textured kind samples (`DrawKind.samplesTexture`); nil for the other kinds.
    ///
    /// A renderer binds this image with this filtering for the batch's draw call. When the image is no
    /// longer imported (released meanwhile), the batch draws nothing.
    public var texture: TextureSampling?

    /// A batch of `instances` of kind `kind`, sampling `texture` when the kind is textured.
    public init(kind: Int, instances: [Int32], texture: TextureSampling? = nil) {
        self.kind = kind
        self.instances = instances
        self.texture = texture
    }
}
