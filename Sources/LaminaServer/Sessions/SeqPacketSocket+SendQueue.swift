import Glibc
import LaminaProtocol
import LaminaSystem

extension SeqPacketSocket {
    /// Bytes of messages this socket sent that its peer has not read yet (kernel accounting, so a
    /// small message counts for more than its length), or nil when the kernel will not say. For a
    /// Unix socket a message stays charged to its sender until the receiver reads it, so 0 means the
    /// peer has read everything sent so far. The corresponding C call is `ioctl(SIOCOUTQ)`, which is
    /// `TIOCOUTQ` on Linux.
    var unreadBytes: Int? {
        var count: Int32 = 0
        let fd = fileDescriptor
        guard (try? syscall("ioctl(SIOCOUTQ)") { ioctl(fd, UInt(TIOCOUTQ), &count) }) != nil else { return nil }
        return Int(count)
    }
}
