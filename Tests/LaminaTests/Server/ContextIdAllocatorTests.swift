import LaminaProtocol
@testable import LaminaServer
import Testing

/// Context ids: counted out from a base, given back to reconnecting contexts at most once and only
/// if never given, skipped by the counter once given back, bounded, and wrapping at
/// `WireLimits.maxContextId`.
@Suite struct ContextIdAllocatorTests {
    /// Whether `ids` gives `id` back (the macros cannot call a mutating method themselves).
    static func restore(_ id: UInt32, _ ids: inout ContextIdAllocator) -> Bool {
        ids.restore(id)
    }

    /// A new id from `ids`, `live` naming the ids in use.
    static func make(_ ids: inout ContextIdAllocator, live: Set<UInt32> = []) -> UInt32 {
        ids.makeId(isLive: live.contains)
    }

    @Test func countsFromItsBaseAndSkipsGivenBackIds() {
        var ids = ContextIdAllocator(base: 100)
        let first = Self.make(&ids)
        let granted = Self.restore(102, &ids)
        let second = Self.make(&ids)
        let third = Self.make(&ids)
        let below = Self.restore(50, &ids)
        #expect(first == 100)
        #expect(granted)
        #expect(second == 101)
        #expect(third == 103, "102 was given back")
        #expect(below, "below the base and never given")
    }

    @Test func anIdIsGivenAtMostOnce() {
        var ids = ContextIdAllocator(base: 100)
        let counted = Self.make(&ids)
        let countedAgain = Self.restore(counted, &ids)
        let granted = Self.restore(7, &ids)
        let grantedAgain = Self.restore(7, &ids)
        #expect(!countedAgain, "counted out")
        #expect(granted)
        #expect(!grantedAgain, "given back already")
        #expect(ids.hasGiven(7) && ids.hasGiven(counted))
        #expect(!ids.hasGiven(101) && !ids.hasGiven(99))
    }

    @Test func givenBackIdsAreBounded() {
        var ids = ContextIdAllocator(base: 1)
        let all = (0..<UInt32(ContextIdAllocator.maxRestored)).allSatisfy { Self.restore(10_000 + $0, &ids) }
        let past = Self.restore(1_000_000, &ids)
        #expect(all)
        #expect(!past, "past maxRestored")
        #expect(ids.restored.count == ContextIdAllocator.maxRestored)
    }

    /// Past `WireLimits.maxContextId` the counter starts again at 1, skips live ids, and every claim
    /// is refused from then on.
    @Test func wrapsPastTheLargestIdSkippingLiveOnes() {
        let top = WireLimits.maxContextId
        var ids = ContextIdAllocator(base: top - 1)
        let granted = Self.restore(2, &ids)
        let made = [Self.make(&ids), Self.make(&ids), Self.make(&ids, live: [1])]
        let afterWrap = Self.restore(500, &ids)
        #expect(granted)
        #expect(made == [top - 1, top, 3], "1 is live, 2 was given back")
        #expect(!afterWrap, "after the wrap, any id may have been given")
    }
}
