import CLaminaShims
import Foundation

extension SurfaceMemory {
    /// Makes sure the memfd `fd` can never shrink: true when it is sealed against shrinking already
    /// or could be sealed now (`fcntl(F_ADD_SEALS)`); false for a descriptor that is not a sealable
    /// memfd. A server that samples a client's memory needs it, since a file truncated under a
    /// mapping faults the reader (SIGBUS).
    public static func sealAgainstShrinking(_ fd: OwnedFD) -> Bool {
        let raw = fd.rawValue
        let seals = clamina_memfd_get_seals(raw)
        if seals >= 0, clamina_seals_fix_size(seals) == 1 { return true }
        guard clamina_memfd_seal_size(raw) == 0 else { return false }
        let after = clamina_memfd_get_seals(raw)
        return after >= 0 && clamina_seals_fix_size(after) == 1
    }
}
