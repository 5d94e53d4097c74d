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

    /// Creates an entry.
    public init(name: String, pid: Int32, layers: UInt64, animations: UInt64, images: UInt64, textureBytes: UInt64) {
        self.name = name
        self.pid = pid
        self.layers = layers
        self.animations = animations
        self.images = images
        self.textureBytes = textureBytes
    }
}
