// Tests of the socket transport and shared-memory layer: SeqPacketSocket, OwnedFD, SharedMemory.
#if canImport(Glibc)
    import Glibc
#endif
import CLaminaShims
import Foundation
import Testing

@testable import LaminaProtocol

/// A fresh folder under the temporary directory, removed by `remove()`; short enough for sun_path.
private struct TempFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/lamina-transport-XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard created != nil else { throw SystemError.current("mkdtemp") }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A pipe whose ends are owned.
private func makePipe() throws -> (read: OwnedFD, write: OwnedFD) {
    var fds: [Int32] = [-1, -1]
    try syscall("pipe") { pipe(&fds) }
    let ends = (read: OwnedFD(fds[0]), write: OwnedFD(fds[1]))
    for fd in fds { try syscall("fcntl(F_SETFD)") { fcntl(fd, F_SETFD, FD_CLOEXEC) } }
    return ends
}

private func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
    let written = try syscall("write") { bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
    #expect(written == bytes.count)
}

private func readSome(_ fd: Int32, max: Int = 256) throws -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: max)
    let count = try syscall("read") { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
    return Array(buffer[..<count])
}

private func fileMode(_ path: String) throws -> mode_t {
    var info = stat()
    try syscall("stat") { stat(path, &info) }
    return info.st_mode
}

private func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

@Suite struct TransportTests {
    // MARK: - Pairs, messages and descriptors

    @Test func sendReceiveWithoutFDs() throws {
        let (a, b) = try SeqPacketSocket.pair()
        try a.send([1, 2, 3, 4])
        let packet = try #require(try b.receive(maxBytes: 64))
        #expect(packet.bytes == [1, 2, 3, 4])
        #expect(packet.fds.isEmpty)
        #expect(!packet.isEndOfStream)
        #expect(!packet.wasTruncated)
    }

    @Test func sendReceiveWithOneFD() throws {
        let (a, b) = try SeqPacketSocket.pair()
        let pipe = try makePipe()
        try a.send(Array("one".utf8), fds: [pipe.read.rawValue])
        pipe.read.close()  // the receiver holds its own duplicate
        let packet = try #require(try b.receive(maxBytes: 64))
        #expect(packet.bytes == Array("one".utf8))
        try #require(packet.fds.count == 1)
        let received = packet.fds[0].rawValue
        #expect(fcntl(received, F_GETFD) & FD_CLOEXEC != 0, "MSG_CMSG_CLOEXEC sets close-on-exec")
        try writeAll(pipe.write.rawValue, [42, 43])
        #expect(try readSome(received) == [42, 43])
    }

    @Test func sendReceiveWithThreeFDs() throws {
        let (a, b) = try SeqPacketSocket.pair()
        let pipes = try (0..<3).map { _ in try makePipe() }
        try a.send([9, 9, 9], fds: pipes.map { $0.read.rawValue })
        let packet = try #require(try b.receive(maxBytes: 64, maxFDs: 8))
        #expect(packet.bytes == [9, 9, 9])
        #expect(!packet.wasTruncated)
        try #require(packet.fds.count == 3)
        #expect(Set(packet.fds.map(\.rawValue)).count == 3)
        for (index, pipe) in pipes.enumerated() {
            try writeAll(pipe.write.rawValue, [UInt8(index + 10)])
        }
        for (index, fd) in packet.fds.enumerated() {
            #expect(try readSome(fd.rawValue) == [UInt8(index + 10)], "fds arrive in the order sent")
        }
    }

    @Test func droppedReceivedFDsAreClosed() throws {
        let (a, b) = try SeqPacketSocket.pair()
        let pipe = try makePipe()
        try a.send([1], fds: [pipe.read.rawValue])
        var raw: Int32 = -1
        do {
            let packet = try #require(try b.receive(maxBytes: 8))
            raw = packet.fds[0].rawValue
            #expect(isOpen(raw))
        }
        #expect(!isOpen(raw), "an OwnedFD that is dropped closes its descriptor")
    }

    @Test func messageBoundariesArePreserved() throws {
        let (a, b) = try SeqPacketSocket.pair()
        let sizes = [7, 1_000, 60_000]
        for (index, size) in sizes.enumerated() {
            try a.send((0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) })
        }
        for (index, size) in sizes.enumerated() {
            let packet = try #require(try b.receive(maxBytes: 100_000))
            #expect(packet.bytes.count == size)
            #expect(packet.bytes == (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ index) })
            #expect(!packet.wasTruncated)
        }
    }

    @Test func oversizeMessageIsTruncated() throws {
        let (a, b) = try SeqPacketSocket.pair()
        try a.send([UInt8](repeating: 7, count: 100))
        try a.send([1, 2])
        let packet = try #require(try b.receive(maxBytes: 10))
        #expect(packet.wasTruncated)
        #expect(packet.bytes == [UInt8](repeating: 7, count: 10))
        // The rest of the oversize message is discarded; the next message is intact.
        let next = try #require(try b.receive(maxBytes: 10))
        #expect(next.bytes == [1, 2])
        #expect(!next.wasTruncated)
    }

    @Test func messageExactlyMaxBytesIsNotTruncated() throws {
        let (a, b) = try SeqPacketSocket.pair()
        try a.send([UInt8](repeating: 3, count: 10))
        let packet = try #require(try b.receive(maxBytes: 10))
        #expect(!packet.wasTruncated)
        #expect(packet.bytes.count == 10)
    }

    @Test func tooManyFDsIsTruncated() throws {
        let (a, b) = try SeqPacketSocket.pair()
        let pipes = try (0..<3).map { _ in try makePipe() }
        try a.send([5], fds: pipes.map { $0.read.rawValue })
        let packet = try #require(try b.receive(maxBytes: 8, maxFDs: 1))
        #expect(packet.wasTruncated)
        #expect(
            packet.fds.count == 1,
            "descriptors past maxFDs are closed, even where the control buffer's padding fits them")
        #expect(packet.bytes == [5])
    }

    @Test func emptyMessageWithFDsIntoNoRoomIsNotEndOfStream() throws {
        let (a, b) = try SeqPacketSocket.pair()
        let pipe = try makePipe()
        try a.send([], fds: [pipe.read.rawValue])
        let packet = try #require(try b.receive(maxBytes: 8, maxFDs: 0))
        #expect(!packet.isEndOfStream)
        #expect(packet.wasTruncated)
        #expect(packet.fds.isEmpty)
    }

    @Test func endOfStreamAfterPeerCloses() throws {
        let (a, b) = try SeqPacketSocket.pair()
        try a.send([1])
        a.close()
        a.close()  // idempotent
        #expect(a.fileDescriptor == -1)
        let first = try #require(try b.receive(maxBytes: 8))
        #expect(first.bytes == [1])
        let end = try #require(try b.receive(maxBytes: 8))
        #expect(end.isEndOfStream)
        #expect(end.bytes.isEmpty)
        #expect(throws: SystemError.self) { try b.send([1]) }  // EPIPE, without SIGPIPE
    }

    @Test func emptyMessageWithoutFDsIsRefused() throws {
        let (a, _) = try SeqPacketSocket.pair()
        #expect(throws: SystemError(call: "sendmsg", errno: EINVAL)) { try a.send([]) }
    }

    @Test func nonBlockingReceiveReturnsNil() throws {
        let (a, b) = try SeqPacketSocket.pair()
        try b.setNonBlocking(true)
        #expect(try b.receive(maxBytes: 8) == nil)
        try a.send([3])
        #expect(try b.receive(maxBytes: 8)?.bytes == [3])
        try b.setNonBlocking(false)
        #expect(fcntl(b.fileDescriptor, F_GETFL) & O_NONBLOCK == 0)
    }

    @Test func receiveTimeoutReturnsNil() throws {
        let (a, b) = try SeqPacketSocket.pair()
        try b.setReceiveTimeout(seconds: 0.05)
        let start = Date()
        #expect(try b.receive(maxBytes: 8) == nil)
        #expect(Date().timeIntervalSince(start) >= 0.04)
        withExtendedLifetime(a) {}  // an open peer: no end of stream
    }

    @Test func nonBlockingSendThrowsEAGAINWhenFull() throws {
        let (a, b) = try SeqPacketSocket.pair()
        defer { withExtendedLifetime(b) {} }  // an open peer: EAGAIN, not EPIPE
        try a.setNonBlocking(true)
        var error: SystemError?
        for _ in 0..<10_000 {
            do { try a.send([UInt8](repeating: 0, count: 4096)) } catch let e as SystemError {
                error = e
                break
            }
        }
        #expect(error?.errno == EAGAIN)
        #expect(error?.call == "sendmsg")
    }

    @Test func blockingReceiveOnAnotherThread() throws {
        let (a, b) = try SeqPacketSocket.pair()
        let done = DispatchSemaphore(value: 0)
        let result = LockedBox<[UInt8]?>(nil)
        let thread = Thread {
            result.set(try? b.receive(maxBytes: 16)?.bytes)
            done.signal()
        }
        thread.start()
        try a.send([8, 6, 7])
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(result.get() == [8, 6, 7])
    }

    @Test func pairPeerCredentialsAreOurs() throws {
        let (a, _) = try SeqPacketSocket.pair()
        let credentials = try #require(a.peerCredentials)
        #expect(credentials.pid == getpid())
        #expect(credentials.uid == getuid())
        #expect(credentials.gid == getgid())
    }

    // MARK: - Shared memory

    @Test func fullHDFrameTravelsThroughSealedMemfd() throws {
        let (a, b) = try SeqPacketSocket.pair()
        let width = 1920, height = 1080, size = width * height * 4
        func pattern(_ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: i &* 31 &+ i >> 11) }
        let memory = try SharedMemory.create(name: "lamina-test-frame", size: size) { buffer in
            #expect(buffer.count == size)
            for i in 0..<size { buffer[i] = pattern(i) }
        }
        #expect(memory.size == size)
        #expect(clamina_seals_are_readonly(clamina_memfd_get_seals(memory.fileDescriptor)) != 0)
        // The creator cannot write any more: the seal forbids it.
        #expect(pwrite(memory.fileDescriptor, [0], 1, 0) == -1)

        try a.send(Array("frame".utf8), fds: [memory.fileDescriptor])
        let packet = try #require(try b.receive(maxBytes: 64))
        try #require(packet.fds.count == 1)
        let mapped = try SharedMemory.map(packet.fds[0], minimumSize: size)
        #expect(packet.fds[0].rawValue == -1, "map takes ownership of the descriptor")
        #expect(mapped.size == size)
        #expect(mapped.fileDescriptor != memory.fileDescriptor)
        var mismatches = 0
        let bytes = mapped.bytes
        for i in 0..<size where bytes[i] != pattern(i) { mismatches += 1 }
        #expect(mismatches == 0)
        #expect(memcmp(bytes.baseAddress!, memory.bytes.baseAddress!, size) == 0)
    }

    @Test func mappingUnsealedMemfdFailsNotSealed() throws {
        let fd = OwnedFD(clamina_memfd_create("lamina-test-unsealed"))
        try #require(fd.rawValue >= 0)
        try syscall("ftruncate") { ftruncate(fd.rawValue, 4096) }
        #expect(throws: SharedMemoryError.notSealed) { try SharedMemory.map(fd, minimumSize: 16) }
        #expect(fd.rawValue >= 0, "a failed map leaves the descriptor with its owner")
    }

    @Test func mappingNonMemfdFailsNotSealed() throws {
        let pipe = try makePipe()
        #expect(throws: SharedMemoryError.notSealed) { try SharedMemory.map(pipe.read, minimumSize: 0) }
    }

    @Test func mappingTooSmallMemfdFails() throws {
        let memory = try SharedMemory.create(name: "lamina-test-small", size: 100) {
            $0.initializeMemory(as: UInt8.self, repeating: 1)
        }
        let copy = try OwnedFD(memory.fileDescriptor).duplicateAndRelease()
        #expect(throws: SharedMemoryError.tooSmall(actual: 100, needed: 200)) {
            try SharedMemory.map(copy, minimumSize: 200)
        }
        let mapped = try SharedMemory.map(copy, minimumSize: 100)
        #expect(Array(mapped.bytes) == [UInt8](repeating: 1, count: 100))
    }

    @Test func failingFillThrowsThrough() throws {
        struct Oops: Error, Equatable {}
        #expect(throws: Oops()) {
            try SharedMemory.create(name: "lamina-test-oops", size: 64) { _ in throw Oops() }
        }
    }

    // MARK: - Paths, listening and connecting

    @Test func listenCreatesMissingFolderWithMode0700() throws {
        let temp = try TempFolder()
        defer { temp.remove() }
        let folder = temp.path + "/run/lamina"
        let path = folder + "/laminad.sock"
        let listener = try SeqPacketSocket.listen(path: path)
        #expect(try fileMode(temp.path + "/run") & 0o777 == 0o700)
        #expect(try fileMode(folder) & 0o777 == 0o700)
        #expect(try fileMode(path) & S_IFMT == S_IFSOCK)
        listener.close()
        #expect(access(path, F_OK) != 0, "closing the listener unlinks its socket file")
    }

    @Test func acceptConnectAndExchange() throws {
        let temp = try TempFolder()
        defer { temp.remove() }
        let path = temp.path + "/s.sock"
        let listener = try SeqPacketSocket.listen(path: path)
        let client = try SeqPacketSocket.connect(path: path)
        let server = try #require(try listener.accept())
        #expect(fcntl(server.fileDescriptor, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(server.fileDescriptor, F_GETFL) & O_NONBLOCK == 0)
        try client.send([1, 2, 3])
        #expect(try server.receive(maxBytes: 8)?.bytes == [1, 2, 3])
        try server.send([4])
        #expect(try client.receive(maxBytes: 8)?.bytes == [4])
        #expect(server.peerCredentials?.pid == getpid())
        #expect(client.peerCredentials?.uid == getuid())
    }

    @Test func acceptOnNonBlockingListenerWithoutPendingConnectionReturnsNil() throws {
        let temp = try TempFolder()
        defer { temp.remove() }
        let path = temp.path + "/s.sock"
        let listener = try SeqPacketSocket.listen(path: path)
        try listener.setNonBlocking(true)
        #expect(try listener.accept() == nil)
        let client = try SeqPacketSocket.connect(path: path)
        let server = try #require(try listener.accept())
        #expect(fcntl(server.fileDescriptor, F_GETFL) & O_NONBLOCK != 0, "accepted sockets inherit non-blocking")
        try client.send([1])
        #expect(try server.receive(maxBytes: 8)?.bytes == [1])
    }

    @Test func secondListenOnLivePathThrowsInUse() throws {
        let temp = try TempFolder()
        defer { temp.remove() }
        let path = temp.path + "/s.sock"
        let listener = try SeqPacketSocket.listen(path: path)
        #expect(throws: SocketPathError.inUse(path)) { try SeqPacketSocket.listen(path: path) }
        // The first listener still works and still owns the file.
        let client = try SeqPacketSocket.connect(path: path)
        #expect(try listener.accept() != nil)
        client.close()
        #expect(access(path, F_OK) == 0)
    }

    @Test func staleSocketFileIsReplaced() throws {
        let temp = try TempFolder()
        defer { temp.remove() }
        let original = temp.path + "/a.sock"
        let stale = temp.path + "/stale.sock"
        // A socket file whose listener is gone: a hard link survives the listener's unlink.
        let first = try SeqPacketSocket.listen(path: original)
        try syscall("link") { link(original, stale) }
        first.close()
        #expect(try fileMode(stale) & S_IFMT == S_IFSOCK)
        #expect(throws: SocketPathError.connect(path: stale, errno: ECONNREFUSED)) {
            try SeqPacketSocket.connect(path: stale)
        }
        let listener = try SeqPacketSocket.listen(path: stale)
        let client = try SeqPacketSocket.connect(path: stale)
        #expect(try listener.accept() != nil)
        _ = client
    }

    @Test func leftoverRegularFileIsReplaced() throws {
        let temp = try TempFolder()
        defer { temp.remove() }
        let path = temp.path + "/s.sock"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("left over".utf8)))
        let listener = try SeqPacketSocket.listen(path: path)
        #expect(try fileMode(path) & S_IFMT == S_IFSOCK)
        let client = try SeqPacketSocket.connect(path: path)
        #expect(try listener.accept() != nil)
        _ = client
    }

    @Test func connectToMissingPathNamesThePath() throws {
        let temp = try TempFolder()
        defer { temp.remove() }
        let path = temp.path + "/nobody-here.sock"
        do {
            _ = try SeqPacketSocket.connect(path: path)
            Issue.record("connect to a missing path succeeded")
        } catch let error as SocketPathError {
            #expect(error == .connect(path: path, errno: ENOENT))
            #expect(error.description.contains(path))
            #expect(error.description.contains("No such file or directory"))
        }
    }

    @Test func tooLongPathIsRejected() throws {
        let path = "/tmp/" + String(repeating: "x", count: 200)
        #expect(throws: SocketPathError.tooLong(path)) { try SeqPacketSocket.listen(path: path) }
        #expect(throws: SocketPathError.tooLong(path)) { try SeqPacketSocket.connect(path: path) }
        let longest = "/tmp/" + String(repeating: "y", count: SeqPacketSocket.maxPathLength - 5)
        #expect(throws: SocketPathError.connect(path: longest, errno: ENOENT)) {
            try SeqPacketSocket.connect(path: longest)
        }
    }

    // MARK: - Errors and ownership

    @Test func systemErrorDescribesTheCall() {
        let error = SystemError(call: "sendmsg", errno: EPIPE)
        #expect(error.description.contains("sendmsg"))
        #expect(error.description.contains("Broken pipe"))
        // EBADF now stops the process (a bad descriptor is Lamina's own bug), so a call failing for
        // an outside reason shows the wrapper throwing the call's name and errno.
        #expect(throws: SystemError(call: "unlink", errno: ENOENT)) {
            try syscall("unlink") { unlink("/nonexistent-lamina-folder/socket") }
        }
    }

    @Test func ownedFDTakeAndClose() throws {
        let pipe = try makePipe()
        let raw = pipe.read.take()
        #expect(pipe.read.rawValue == -1)
        #expect(isOpen(raw))
        let owner = OwnedFD(raw)
        owner.close()
        owner.close()
        #expect(!isOpen(raw))
        #expect(owner.take() == -1)
    }
}

extension OwnedFD {
    /// Test helper: a duplicate of this descriptor, after giving up (not closing) the original.
    fileprivate func duplicateAndRelease() throws -> OwnedFD {
        defer { _ = take() }
        return try duplicate()
    }
}

/// A value shared with a Thread under a lock.
private final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value { lock.withLock { value } }
}
