// Which file a path names: its device and inode.
#if canImport(Glibc)
    import Glibc
#endif
import LaminaSystem

/// A file's identity, its device and inode numbers (`st_dev`, `st_ino`): two paths or descriptors
/// with equal identities name the same file, and a path whose identity changed names another file.
public struct FileIdentity: Equatable, Sendable {
    /// The device the file lives on (`st_dev`).
    public var device: UInt64
    /// The file's inode number on that device (`st_ino`).
    public var inode: UInt64

    /// An identity from its two numbers.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of the file `path` names itself (a symbolic link is not followed), or nil when
    /// there is none. The corresponding C function is `lstat`.
    public init?(path: String) {
        var info = stat()
        guard (try? syscall("lstat", { lstat(path, &info) })) != nil else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The identity of the file open as `descriptor`, or nil when `fstat` fails. The corresponding
    /// C function is `fstat`.
    public init?(descriptor: Int32) {
        var info = stat()
        guard (try? syscall("fstat", { fstat(descriptor, &info) })) != nil else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
