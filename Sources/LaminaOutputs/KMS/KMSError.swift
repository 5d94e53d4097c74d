import Glibc

/// A KMS call failed, or the device cannot drive a display: the call's name and what went wrong.
///
/// Every libdrm call the KMS output makes is checked; a failure is thrown as this error naming the
/// call (such as `drmModeAtomicCommit(TEST_ONLY)`), with the `errno` it left when there is one.
public struct KMSError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The call that failed, such as `drmModeCreateDumbBuffer`, or the step that found no way on.
    public let call: String
    /// The `errno` the call failed with, or nil when the failure is not a system error.
    public let errno: Int32?
    /// More about the failure, such as which connector or buffer it concerned.
    public let detail: String

    /// A failure of `call` with `errno` (nil: not a system error) and `detail`.
    public init(call: String, errno: Int32? = nil, detail: String = "") {
        self.call = call
        self.errno = errno
        self.detail = detail
    }

    /// "`call` failed: `strerror(errno)` (errno N): `detail`".
    public var description: String {
        var text = "\(call) failed"
        if let errno { text += ": \(String(cString: strerror(errno))) (errno \(errno))" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }

    /// Throws for a libdrm result below zero: libdrm returns `-errno` (or -1 with `errno` set).
    static func check(_ result: Int32, _ call: String, _ detail: String = "") throws(KMSError) {
        guard result < 0 else { return }
        let code = result == -1 ? Glibc.errno : -result
        throw KMSError(call: call, errno: code, detail: detail)
    }
}
