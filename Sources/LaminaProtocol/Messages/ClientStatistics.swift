import Foundation
import LaminaCore

/// What one client holds in the server, as a `statsReply` lists it (`laminactl stats`).
public struct ClientStatistics: Sendable, Hashable {
    /// The name the client gave in its `hello`.
    public var name: String
    /// The client's process id (`SO_PEERCRED`), or 0 when unknown.
    public var pid: Int32
    /// The layers of its render tree.
    public var layers: UInt64
    /// The animations attached to its layers.
    public var animations: UInt64
    /// The images it has uploaded and not released (each one texture).
    public var images: UInt64
    /// The texture memory its images take: width × height × 4 bytes each, × 4/3 for the mip chain.
    public var textureBytes: UInt64
    /// The shared surfaces it has registered and the server has not unmapped.
    public var surfaces: UInt64
    /// The bytes of those surfaces' memfds, mapped by the server.
    public var surfaceBytes: UInt64
    /// The bytes the server has copied out of its surfaces since it registered them: 0 while every
    /// surface is sampled where it lies (zero copy); each change of a surface the device cannot
    /// sample in place copies its rows into a texture.
    public var surfaceBytesCopied: UInt64

    /// Creates an entry.
    public init(
        name: String, pid: Int32, layers: UInt64, animations: UInt64, images: UInt64, textureBytes: UInt64,
        surfaces: UInt64 = 0, surfaceBytes: UInt64 = 0, surfaceBytesCopied: UInt64 = 0
    ) {
        self.name = name
        self.pid = pid
        self.layers = layers
        self.animations = animations
        self.images = images
        self.textureBytes = textureBytes
        self.surfaces = surfaces
        self.surfaceBytes = surfaceBytes
        self.surfaceBytesCopied = surfaceBytesCopied
    }
}
