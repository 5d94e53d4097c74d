/// A system call the offscreen output needs failed.
public struct OffscreenOutputError: Error, CustomStringConvertible {
    /// The call that failed, such as `timerfd_create`.
    public let call: String
    /// The `errno` it left.
    public let errno: Int32

    /// What failed, naming the call.
    public var description: String { "\(call) failed: errno \(errno)" }
}
