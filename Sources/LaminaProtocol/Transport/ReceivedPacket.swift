import CLaminaShims
import Foundation
import LaminaSystem

/// One message read by `SeqPacketSocket.receive(maxBytes:maxFDs:)`.
public struct ReceivedPacket: Sendable {
    /// The message's bytes (at most `maxBytes`; cut short when `wasTruncated`).
    public var bytes: [UInt8]
    /// The descriptors that came with the message (`SCM_RIGHTS`), each owned: those
    /// the caller drops are closed automatically.
    public var fds: [OwnedFD]
    /// The peer closed its end (the C function `recvmsg` returned 0 with no descriptors).
    public var isEndOfStream: Bool
    /// The message was larger than `maxBytes` (`MSG_TRUNC`) or carried more descriptors
    /// than `maxFDs` (`MSG_CTRUNC`; the excess ones were closed by the kernel).
    public var wasTruncated: Bool

    /// Creates a packet. No C call is made.
    public init(bytes: [UInt8], fds: [OwnedFD] = [], isEndOfStream: Bool = false, wasTruncated: Bool = false) {
        self.bytes = bytes
        self.fds = fds
        self.isEndOfStream = isEndOfStream
        self.wasTruncated = wasTruncated
    }

    /// The packet reported when the peer has closed its end of the connection.
    public static let endOfStream = ReceivedPacket(bytes: [], fds: [], isEndOfStream: true, wasTruncated: false)
}
