/// A tiny deterministic random number generator (SplitMix64), so a test that draws random cases can
/// replay a failing one from its seed.
///
/// Each call to `next()` adds the golden-ratio increment to the state and mixes it; the same seed
/// always gives the same sequence on every platform. Not for cryptography.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state: the seed plus the increment once per number drawn.
    public var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (the next value modulo `n`; `n` must be positive).
    public mutating func below(_ n: Int) -> Int {
        Int(next() % UInt64(n))
    }
}
