// A failed system call: the typed error every wrapper in this module throws.
import Glibc

/// A failed system call: the call's name and its `errno`, with the C library's
/// `strerror` text in `description`.
///
/// The corresponding C function for the text is `strerror`; `errno` is the value the
/// failed call left in the C `errno` variable. `syscall(_:_:)` and its relatives throw it.
public struct SystemError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The name of the system call that failed, such as `"sendmsg"`.
    public let call: String
    /// The C `errno` value the call failed with, such as `EAGAIN`.
    public let errno: Int32

    /// Creates an error for `call` failing with `errno`. No C call is made.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// Creates an error for `call` from the current value of the C `errno` variable.
    public static func current(_ call: String) -> SystemError {
        SystemError(call: call, errno: currentErrno())
    }

    /// "`call`: `strerror(errno)` (errno N)". The corresponding C function is `strerror`.
    public var description: String {
        "\(call): \(Self.message(for: errno)) (errno \(errno))"
    }

    /// The C library's text for `errno`. The corresponding C function is `strerror_r`
    /// (the XSI, thread-safe form of `strerror`).
    public static func message(for errno: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        // Swift's Glibc module sees the XSI strerror_r, which fills `buffer` and returns 0.
        let rc = buffer.withUnsafeMutableBytes { raw in
            strerror_r(errno, raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count)
        }
        if rc != 0 { return "unknown error \(errno)" }
        let length = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<length], as: UTF8.self)
    }
}

/// The current value of the C `errno` variable.
@inline(__always)
func currentErrno() -> Int32 {
    Glibc.errno
}
