// SOCK_SEQPACKET Unix-domain sockets: message-preserving transport with fd passing (SCM_RIGHTS).
#if canImport(Glibc)
    import Glibc
#endif
import CLaminaShims
import Foundation
import LaminaSystem

/// A Unix-domain `SOCK_SEQPACKET` socket: connection-oriented, reliable, and keeping
/// message boundaries, with file descriptors passed alongside messages (`SCM_RIGHTS`).
///
/// The corresponding C function for creating one is `socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)`.
/// Sending and receiving from different threads at once is safe; `close()` while
/// another thread is blocked in a call on the socket is not (call `shutdown()` first).
public final class SeqPacketSocket: @unchecked Sendable {
    /// The longest path `sockaddr_un.sun_path` holds, without its terminating NUL (107 on Linux).
    public static let maxPathLength: Int = {
        var addr = sockaddr_un()
        return MemoryLayout.size(ofValue: addr.sun_path) - 1
    }()

    private let owned: OwnedFD
    private let lock = NSLock()
    /// The socket file `listen(path:)` bound and its identity, unlinked on close only if unchanged.
    private var boundFile: (path: String, identity: FileIdentity)?
    /// Where `receive` reads packets into (one receiving thread at a time, as for every socket here).
    private var receiveBuffer: [UInt8] = []
    /// The lock on the socket path, held from `listen(path:)` until `close()`.
    private var pathLock: SocketLock?

    /// The socket's descriptor (-1 once closed); ownership stays with this object.
    public var fileDescriptor: Int32 { owned.rawValue }

    /// Takes ownership of `fd`, an already open socket; it is closed with the C function
    /// `close` by `close()` or `deinit`.
    public init(adopting fd: Int32) {
        owned = OwnedFD(fd)
    }

    deinit {
        close()
    }

    // MARK: - Creating

    /// Creates a listening socket bound to `path`, owning the path for as long as it is open.
    ///
    /// Creates the folder of `path` (mode 0700, parents too) if it is missing, and refuses a folder that
    /// other users may write (`SocketPathError.unsafeFolder`) unless it is sticky and owned by this
    /// user. Then takes the lock `path.lock` (`SocketLock`): when another server holds it, throws
    /// `SocketPathError.inUse(path)`, whether or not the socket file still exists. Holding the lock,
    /// it replaces a stale socket or leftover file at `path` (still refusing with `.inUse` if a server
    /// that takes no lock answers a probing `connect` there), binds, sets the file's mode from
    /// `access` (0600, or 0660 and the group) before listening, and listens. Paths longer than
    /// `sun_path` throw `.tooLong(path)`; other failures throw `.create(path:errno:)`.
    ///
    /// `close()` unlinks the socket file only if `path` still names the file this call bound (same
    /// device and inode), then releases the lock. The corresponding C functions are `mkdir`, `stat`,
    /// `open`, `flock`, `socket`, `bind`, `unlink`, `chmod`, `chown` and `listen`.
    public static func listen(path: String, backlog: Int32 = 64, access: SocketAccess = .owner) throws
        -> SeqPacketSocket
    {
        var addr = try makeAddress(path)
        try createParentFolder(of: path)
        try checkParentFolder(of: path)
        let pathLock = try SocketLock(socketPath: path)
        let socket = try SeqPacketSocket(adopting: makeSocket(path: path))
        socket.lock.withLock { socket.pathLock = pathLock }
        let fd = socket.fileDescriptor
        var replacedStale = false
        while true {
            do {
                try syscall("bind") { bind(fd, &addr) }
                break
            } catch {
                guard error.errno == EADDRINUSE, !replacedStale else {
                    throw SocketPathError.create(path: path, errno: error.errno)
                }
            }
            // Someone's file is there: is a server that takes no lock answering on it?
            if try probeIsLive(path: path, addr: &addr) {
                throw SocketPathError.inUse(path)
            }
            do {
                try syscall("unlink") { unlink(path) }
            } catch  where error.errno != ENOENT {
                throw SocketPathError.create(path: path, errno: error.errno)
            } catch {
                // Gone meanwhile: bind again.
            }
            replacedStale = true
        }
        guard let identity = FileIdentity(path: path) else { throw SocketPathError.create(path: path, errno: ENOENT) }
        socket.lock.withLock { socket.boundFile = (path, identity) }
        // Nobody can connect before listen(), so the mode is right before the first client can try.
        do {
            try syscall("chmod") { chmod(path, mode_t(access.mode)) }
            if case .group(let gid) = access {
                try syscall("chown") { chown(path, uid_t.max, gid_t(gid)) }
            }
        } catch {
            throw SocketPathError.create(path: path, errno: error.errno)
        }
        try syscall("listen") { Glibc.listen(fd, backlog) }
        return socket
    }

    /// Connects to the server listening on `path`.
    ///
    /// Failures are `SocketPathError.connect(path:errno:)` (whose description names the path and
    /// the `strerror` reason), or `.tooLong(path)`. The corresponding C functions are `socket`
    /// and `connect` (after `EINTR`, `poll` until the connection is made and `getsockopt(SO_ERROR)`).
    public static func connect(path: String) throws -> SeqPacketSocket {
        var addr = try makeAddress(path)
        let socket: SeqPacketSocket
        do {
            socket = SeqPacketSocket(adopting: try socketCall())
            try connectCall(socket.fileDescriptor, &addr)
        } catch {
            throw SocketPathError.connect(path: path, errno: error.errno)
        }
        return socket
    }

    /// Creates a connected pair of sockets. The corresponding C function is
    /// `socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)`.
    public static func pair() throws -> (SeqPacketSocket, SeqPacketSocket) {
        var fds: [Int32] = [-1, -1]
        try syscall("socketpair") {
            socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        }
        return (SeqPacketSocket(adopting: fds[0]), SeqPacketSocket(adopting: fds[1]))
    }

    // MARK: - Using

    /// Accepts one pending connection, with close-on-exec set and, when this listener is
    /// non-blocking, non-blocking too. Returns nil when none is pending (`EAGAIN`/`EWOULDBLOCK`,
    /// or a receive timeout). The corresponding C function is `accept4` (retried on `EINTR`
    /// and `ECONNABORTED`).
    public func accept() throws -> SeqPacketSocket? {
        let fd = try openDescriptor("fcntl(F_GETFL)")
        let status = try syscall("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        var flags = Int32(SOCK_CLOEXEC.rawValue)
        if status & O_NONBLOCK != 0 { flags |= Int32(SOCK_NONBLOCK.rawValue) }
        while true {
            do {
                guard let client = try nonBlockingSyscall("accept4", { clamina_accept4(fd, flags) }) else { return nil }
                return SeqPacketSocket(adopting: client)
            } catch {
                // ECONNABORTED: the client gave up while queued; look at the next one.
                if error.errno != ECONNABORTED { throw error }
            }
        }
    }

    /// Sends `bytes` as one message, with `fds` attached as `SCM_RIGHTS` when not empty.
    ///
    /// Uses `MSG_NOSIGNAL` (a closed peer is `EPIPE`, not `SIGPIPE`) and retries on `EINTR`.
    /// `EAGAIN` (non-blocking and the buffer is full) and `EMSGSIZE` (larger than `SO_SNDBUF`)
    /// are thrown as `SystemError`. An empty message without descriptors is refused with
    /// `EINVAL`, since the peer could not tell it from end of stream. The descriptors stay
    /// owned by the caller (the kernel passes duplicates). The corresponding C function is `sendmsg`.
    public func send(_ bytes: [UInt8], fds: [Int32] = []) throws {
        if bytes.isEmpty && fds.isEmpty { throw SystemError(call: "sendmsg", errno: EINVAL) }
        let fd = try openDescriptor("sendmsg")
        let controlSize = fds.isEmpty ? 0 : clamina_cmsg_space(fds.count * MemoryLayout<Int32>.size)
        // A UInt64 array keeps the control buffer aligned for cmsghdr.
        var control = [UInt64](repeating: 0, count: (controlSize + 7) / 8)
        var payload = bytes
        let sent: Int = try payload.withUnsafeMutableBytes { data in
            try control.withUnsafeMutableBytes { controlBytes in
                var iov = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return try withUnsafeMutablePointer(to: &iov) { iovPointer in
                    var message = msghdr()
                    message.msg_iov = iovPointer
                    message.msg_iovlen = 1
                    if controlSize > 0 {
                        message.msg_control = controlBytes.baseAddress
                        message.msg_controllen = controlSize
                        let header = clamina_cmsg_firsthdr(&message)!
                        header.pointee.cmsg_level = SOL_SOCKET
                        header.pointee.cmsg_type = Int32(SCM_RIGHTS)
                        header.pointee.cmsg_len = clamina_cmsg_len(fds.count * MemoryLayout<Int32>.size)
                        let dataPointer = UnsafeMutableRawPointer(clamina_cmsg_data(header)!)
                        for (index, descriptor) in fds.enumerated() {
                            dataPointer.storeBytes(
                                of: descriptor, toByteOffset: index * MemoryLayout<Int32>.size, as: Int32.self)
                        }
                    }
                    return try syscall("sendmsg") { sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) }
                }
            }
        }
        if sent != bytes.count {
            // SOCK_SEQPACKET sends are atomic; a short count would mean a broken kernel contract.
            throw SystemError(call: "sendmsg", errno: EMSGSIZE)
        }
    }

    /// Receives one message of at most `maxBytes` bytes with room for `maxFDs` descriptors.
    ///
    /// Reads with `MSG_CMSG_CLOEXEC` into a buffer of `maxBytes + 1` bytes, so a larger message
    /// is reported with `wasTruncated` (its excess is discarded, as `SOCK_SEQPACKET` does).
    /// Returns nil on `EAGAIN` (non-blocking, or the receive timeout passed), and
    /// `ReceivedPacket.endOfStream` when the peer has closed. Retries on `EINTR`. Not reentrant: one
    /// thread receives on a socket at a time (the reader thread, or the server's loop).
    /// The corresponding C function is `recvmsg`.
    public func receive(maxBytes: Int, maxFDs: Int = 8) throws -> ReceivedPacket? {
        precondition(maxBytes >= 0 && maxFDs >= 0, "receive: maxBytes and maxFDs must not be negative")
        let fd = try openDescriptor("recvmsg")
        // One buffer of the largest size asked for, kept between calls: a packet costs an allocation of
        // its own size, not of `maxBytes` (freeing a buffer that large made glibc consolidate its heap
        // on every receive).
        if receiveBuffer.count < maxBytes + 1 { receiveBuffer = [UInt8](repeating: 0, count: maxBytes + 1) }
        let controlSize = maxFDs > 0 ? clamina_cmsg_space(maxFDs * MemoryLayout<Int32>.size) : 0
        var control = [UInt64](repeating: 0, count: (controlSize + 7) / 8)

        var received = 0
        var flags: Int32 = 0
        var descriptors: [OwnedFD] = []
        let gotMessage: Bool = try receiveBuffer.withUnsafeMutableBytes { data in
            try control.withUnsafeMutableBytes { controlBytes in
                var iov = iovec(iov_base: data.baseAddress, iov_len: maxBytes + 1)
                return try withUnsafeMutablePointer(to: &iov) { iovPointer in
                    var message = msghdr()
                    let count = try nonBlockingSyscall("recvmsg") {
                        // Set up afresh on every try: a call interrupted by a signal may have written to it.
                        message = msghdr()
                        message.msg_iov = iovPointer
                        message.msg_iovlen = 1
                        if controlSize > 0 {
                            message.msg_control = controlBytes.baseAddress
                            message.msg_controllen = controlSize
                        }
                        return recvmsg(fd, &message, Int32(MSG_CMSG_CLOEXEC))
                    }
                    guard let count else { return false }
                    received = count
                    flags = message.msg_flags
                    guard controlSize > 0, message.msg_controllen > 0 else { return true }
                    // Every descriptor received is owned at once, so none leaks.
                    var header = clamina_cmsg_firsthdr(&message)
                    while let current = header {
                        if current.pointee.cmsg_level == SOL_SOCKET, current.pointee.cmsg_type == Int32(SCM_RIGHTS) {
                            let dataPointer = UnsafeRawPointer(clamina_cmsg_data(current)!)
                            let headerBytes = UnsafeRawPointer(current).distance(to: dataPointer)
                            let count = (Int(current.pointee.cmsg_len) - headerBytes) / MemoryLayout<Int32>.size
                            for index in 0..<max(0, count) {
                                let received = dataPointer.loadUnaligned(
                                    fromByteOffset: index * MemoryLayout<Int32>.size, as: Int32.self)
                                descriptors.append(OwnedFD(received))
                            }
                        }
                        header = clamina_cmsg_nxthdr(&message, current)
                    }
                    return true
                }
            }
        }
        guard gotMessage else { return nil }
        var tooManyFDs = false
        if descriptors.count > maxFDs {
            // CMSG_SPACE padding can fit one more than asked for; close the excess like the kernel does.
            descriptors.removeLast(descriptors.count - maxFDs)
            tooManyFDs = true
        }
        if received == 0 && descriptors.isEmpty && flags & Int32(MSG_TRUNC | MSG_CTRUNC) == 0 {
            return .endOfStream
        }
        let truncated =
            tooManyFDs || received > maxBytes || flags & Int32(MSG_TRUNC) != 0 || flags & Int32(MSG_CTRUNC) != 0
        let bytes = Array(receiveBuffer[0..<min(received, maxBytes)])
        return ReceivedPacket(bytes: bytes, fds: descriptors, isEndOfStream: false, wasTruncated: truncated)
    }

    /// Turns `O_NONBLOCK` on or off. The corresponding C function is `fcntl` (`F_GETFL`/`F_SETFL`).
    public func setNonBlocking(_ on: Bool) throws {
        let fd = try openDescriptor("fcntl(F_GETFL)")
        let status = try syscall("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        let updated = on ? status | O_NONBLOCK : status & ~O_NONBLOCK
        if updated != status {
            try syscall("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, updated) }
        }
    }

    /// Sets how long a blocking `receive` (or `accept`) waits before returning nil; 0 waits forever.
    /// The corresponding C function is `setsockopt(SOL_SOCKET, SO_RCVTIMEO)`.
    public func setReceiveTimeout(seconds: Double) throws {
        precondition(seconds >= 0 && seconds.isFinite, "setReceiveTimeout: seconds must be finite and not negative")
        let whole = seconds.rounded(.down)
        var microseconds = Int((seconds - whole) * 1_000_000)
        if seconds > 0 && whole == 0 && microseconds == 0 { microseconds = 1 }  // never round a wait to "forever"
        var value = timeval(tv_sec: Int(whole), tv_usec: microseconds)
        let fd = try openDescriptor("setsockopt(SO_RCVTIMEO)")
        try syscall("setsockopt(SO_RCVTIMEO)") {
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// The process, user and group of the peer as of connecting (or creating the pair), or nil
    /// when unavailable. The corresponding C function is `getsockopt(SOL_SOCKET, SO_PEERCRED)`.
    public var peerCredentials: PeerCredentials? {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        guard let fd = try? openDescriptor("getsockopt(SO_PEERCRED)"),
            (try? syscall("getsockopt(SO_PEERCRED)", { clamina_peer_credentials(fd, &pid, &uid, &gid) })) != nil
        else { return nil }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
    }

    /// Shuts down both directions, waking threads blocked in `receive` or `accept` on this
    /// socket; the descriptor stays open until `close()`. The corresponding C function is
    /// `shutdown(fd, SHUT_RDWR)`.
    public func shutdown() throws {
        let fd = try openDescriptor("shutdown")
        try syscall("shutdown") { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Closes the socket; idempotent, and `deinit` does it too. A socket created by
    /// `listen(path:)` first unlinks its socket file, if the path still names the file it bound
    /// (another server's socket put there meanwhile is left alone), and afterwards releases its path
    /// lock. The corresponding C functions are `lstat`, `unlink` and `close`.
    public func close() {
        let (bound, pathLock) = lock.withLock {
            defer {
                boundFile = nil
                self.pathLock = nil
            }
            return (boundFile, self.pathLock)
        }
        if let bound, owned.isValid, FileIdentity(path: bound.path) == bound.identity {
            _ = try? syscall("unlink") { unlink(bound.path) }
        }
        owned.close()
        pathLock?.release()
    }

    // MARK: - Helpers

    private static func makeAddress(_ path: String) throws -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let utf8 = Array(path.utf8)
        guard utf8.count <= maxPathLength else { throw SocketPathError.tooLong(path) }
        guard !utf8.isEmpty, !utf8.contains(0) else { throw SocketPathError.create(path: path, errno: EINVAL) }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: utf8)
        }
        return addr
    }

    /// The socket's descriptor, or `SystemError(call: call, errno: EBADF)` once it is closed: using
    /// a closed socket is the caller's mistake to report, not one to trap on (contrast an `EBADF`
    /// from the kernel on a descriptor we think is open, which `syscall` traps on).
    private func openDescriptor(_ call: String) throws(SystemError) -> Int32 {
        let fd = owned.rawValue
        guard fd >= 0 else { throw SystemError(call: call, errno: EBADF) }
        return fd
    }

    /// Calls the C function `socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)`.
    private static func socketCall() throws(SystemError) -> Int32 {
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        return try syscall("socket") { Glibc.socket(AF_UNIX, type, 0) }
    }

    private static func makeSocket(path: String) throws -> Int32 {
        do {
            return try socketCall()
        } catch {
            throw SocketPathError.create(path: path, errno: error.errno)
        }
    }

    private static func bind(_ fd: Int32, _ addr: inout sockaddr_un) -> Int32 {
        withUnsafePointer(to: &addr) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// Connects `fd` to `addr`. The corresponding C function is `connect`, called once: after
    /// `EINTR` the connection goes on in the background, so this waits for the socket to become
    /// writable (`poll`) and reads the outcome with `getsockopt(SO_ERROR)`, thrown as `connect`'s.
    private static func connectCall(_ fd: Int32, _ addr: inout sockaddr_un) throws(SystemError) {
        do {
            try interruptibleSyscall("connect") {
                withUnsafePointer(to: &addr) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
        } catch {
            guard error.errno == EINTR else { throw error }
            var entries = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
            while try poll(&entries, timeout: -1) == 0 {}
            var outcome: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            try syscall("getsockopt(SO_ERROR)") { getsockopt(fd, SOL_SOCKET, SO_ERROR, &outcome, &length) }
            if outcome != 0 { throw SystemError(call: "connect", errno: outcome) }
        }
    }

    /// Whether a server answers on `path`: connects a throwaway socket. `ECONNREFUSED` (no
    /// listener) and `ENOENT` (gone meanwhile) mean stale; other errors are thrown as `.create`.
    private static func probeIsLive(path: String, addr: inout sockaddr_un) throws -> Bool {
        let probe = OwnedFD(try makeSocket(path: path))
        do {
            try connectCall(probe.rawValue, &addr)
            return true
        } catch {
            switch error.errno {
            case EAGAIN: return true  // a live listener with a full backlog
            case ECONNREFUSED, ENOENT: return false
            default: throw SocketPathError.create(path: path, errno: error.errno)
            }
        }
    }

    /// Refuses the folder holding `path` when other users may write it (mode & 0o002), unless it is
    /// sticky (0o1000) and owned by this process's effective user: there, nobody else can remove or
    /// replace our files. The corresponding C function is `stat`.
    private static func checkParentFolder(of path: String) throws {
        let folder: String
        if let slash = path.lastIndex(of: "/") {
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            folder = "."
        }
        var info = stat()
        do {
            try syscall("stat") { stat(folder, &info) }
        } catch {
            throw SocketPathError.create(path: path, errno: error.errno)
        }
        let mode = UInt32(info.st_mode) & 0o7777
        let ownSticky = mode & 0o1000 != 0 && info.st_uid == geteuid()
        if mode & 0o002 != 0 && !ownSticky {
            throw SocketPathError.unsafeFolder(folder: folder, mode: mode)
        }
    }

    /// Creates every missing folder above `path` with mode 0700.
    /// The corresponding C functions are `mkdir` and `chmod`.
    private static func createParentFolder(of path: String) throws {
        guard let slash = path.lastIndex(of: "/") else { return }
        let parent = String(path[..<slash])
        guard !parent.isEmpty else { return }
        var prefix = parent.hasPrefix("/") ? "/" : ""
        for component in parent.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            do {
                try syscall("mkdir") { mkdir(prefix, 0o700) }
                // mkdir applies the umask; make sure a folder created here is exactly 0700.
                _ = try? syscall("chmod") { chmod(prefix, 0o700) }
            } catch  where error.errno == EEXIST {
                continue
            } catch {
                throw SocketPathError.create(path: path, errno: error.errno)
            }
        }
    }
}
