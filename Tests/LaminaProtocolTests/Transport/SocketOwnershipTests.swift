import Foundation
import Glibc
import LaminaProtocol
import Testing

/// Issue 9, defects 6 and 7: a listening socket owns its path through `PATH.lock`, unlinks only the
/// file it bound, sets its own mode, and refuses a folder other users may write.
@Suite struct SocketOwnershipTests {
    /// A fresh private folder under /tmp (mode 0700), removed by `remove()`.
    struct Folder {
        let path: String

        init() throws {
            var template = Array("/tmp/lamina-own-XXXXXX".utf8CString)
            let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            guard created != nil else { throw SystemError.current("mkdtemp") }
            path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    static func status(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    @Test func secondListenerIsRefusedByTheLockEvenWhenTheSocketFileIsGone() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.path + "/s.sock"
        let first = try SeqPacketSocket.listen(path: path)
        #expect(Self.status(path + ".lock") != nil, "the lock file sits beside the socket")
        #expect(throws: SocketPathError.inUse(path)) { try SeqPacketSocket.listen(path: path) }

        // The original defect: with the socket file removed, nobody answers a probe, so the old code
        // let a second server bind, and the first one's stop then unlinked the second one's socket.
        #expect(unlink(path) == 0)
        do {
            _ = try SeqPacketSocket.listen(path: path)
            Issue.record("a second listener started on a path whose lock is held")
        } catch let error as SocketPathError {
            #expect(error == .inUse(path))
            #expect(error.description.contains(path), "\(error)")
        }
        first.close()
        #expect(Self.status(path + ".lock") == nil, "closing removes the lock file it created")

        // Once the first has closed, the path is free again.
        let second = try SeqPacketSocket.listen(path: path)
        let client = try SeqPacketSocket.connect(path: path)
        #expect(try second.accept() != nil)
        _ = client
    }

    @Test func closingNeverUnlinksAFileItDidNotBind() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.path + "/s.sock"
        let listener = try SeqPacketSocket.listen(path: path)
        // Someone replaces the socket file with another file (another inode) while we run.
        #expect(unlink(path) == 0)
        #expect(FileManager.default.createFile(atPath: path, contents: Data("someone else's".utf8)))
        let replacement = try #require(Self.status(path))
        listener.close()
        let after = try #require(Self.status(path), "close removed a file it did not create")
        #expect(after.st_ino == replacement.st_ino && after.st_dev == replacement.st_dev)
    }

    @Test func closingUnlinksItsOwnSocketAndLock() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.path + "/s.sock"
        let listener = try SeqPacketSocket.listen(path: path)
        listener.close()
        #expect(Self.status(path) == nil)
        #expect(Self.status(path + ".lock") == nil)
    }

    @Test func lockFileLeftWithoutHolderDoesNotBlock() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.path + "/s.sock"
        // A killed server leaves its lock file, but the kernel dropped its lock with the process.
        #expect(FileManager.default.createFile(atPath: path + ".lock", contents: nil))
        #expect(FileManager.default.createFile(atPath: path, contents: Data("stale".utf8)))
        let listener = try SeqPacketSocket.listen(path: path)
        #expect(try #require(Self.status(path)).st_mode & S_IFMT == S_IFSOCK)
        let client = try SeqPacketSocket.connect(path: path)
        #expect(try listener.accept() != nil)
        _ = client
    }

    @Test func socketModeIs0600WhateverTheUmask() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.path + "/s.sock"
        let listener = try SeqPacketSocket.listen(path: path)
        let info = try #require(Self.status(path))
        #expect(info.st_mode & 0o7777 == 0o600, "mode \(String(info.st_mode & 0o7777, radix: 8))")
        _ = listener
    }

    @Test func groupAccessGives0660AndTheGroup() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.path + "/s.sock"
        let group: UInt32 = getegid() == 0 ? 65534 : getegid()
        let listener = try SeqPacketSocket.listen(path: path, access: .group(gid: group))
        let info = try #require(Self.status(path))
        #expect(info.st_mode & 0o7777 == 0o660, "mode \(String(info.st_mode & 0o7777, radix: 8))")
        #expect(info.st_gid == group)
        _ = listener
    }

    @Test func folderOthersCanWriteIsRefused() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let open = folder.path + "/open"
        #expect(mkdir(open, 0o700) == 0 && chmod(open, 0o777) == 0)
        let path = open + "/s.sock"
        do {
            _ = try SeqPacketSocket.listen(path: path)
            Issue.record("listened in a folder every user may write")
        } catch let error as SocketPathError {
            #expect(error == .unsafeFolder(folder: open, mode: 0o777))
            #expect(error.description.contains(open) && error.description.contains("writable by other users"))
        }
        #expect(Self.status(path) == nil && Self.status(path + ".lock") == nil, "nothing is created there")

        // Sticky and owned by us (like /tmp for its owner): nobody else may remove or replace our files.
        #expect(chmod(open, 0o1777) == 0)
        let listener = try SeqPacketSocket.listen(path: path)
        _ = listener
    }

    @Test(arguments: [
        (uid: UInt32(0), server: UInt32(1000), sees: true),
        (uid: UInt32(1000), server: UInt32(1000), sees: true),
        (uid: UInt32(1001), server: UInt32(1000), sees: false),
        (uid: UInt32(65534), server: UInt32(0), sees: false),
        (uid: UInt32(0), server: UInt32(0), sees: true),
    ])
    func onlyRootAndTheServersUserSeeEveryClient(uid: UInt32, server: UInt32, sees: Bool) {
        let peer = PeerCredentials(pid: 42, uid: uid, gid: 100)
        #expect(peer.seesEveryClient(serverUID: server) == sees)
    }
}
