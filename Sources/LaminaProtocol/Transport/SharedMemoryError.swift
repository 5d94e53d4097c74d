import CLaminaShims
import LaminaSystem

/// Why a received descriptor could not be mapped by `SharedMemory.map(_:minimumSize:)`.
public enum SharedMemoryError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The descriptor is not a memfd sealed against writing, shrinking and growing
    /// (checked with the C function `fcntl(F_GET_SEALS)`), so its sender could still change it.
    case notSealed
    /// The buffer (`st_size` from the C function `fstat`) is smaller than the caller needs.
    case tooSmall(actual: Int, needed: Int)
    /// A system call failed.
    case system(SystemError)

    /// A sentence naming the problem.
    public var description: String {
        switch self {
        case .notSealed:
            return "shared memory is not a memfd sealed read-only (F_SEAL_WRITE, F_SEAL_SHRINK and F_SEAL_GROW needed)"
        case .tooSmall(let actual, let needed):
            return "shared memory is too small: \(actual) bytes, \(needed) needed"
        case .system(let error):
            return "shared memory: \(error)"
        }
    }
}
