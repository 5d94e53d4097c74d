import LaminaServer
import Testing

/// The KMS output's buffer-age damage: with two buffers flipped in turn, the back buffer holds the
/// frame before last, so it lacks the damage of the last two frames and nothing else; the plane's
/// `FB_DAMAGE_CLIPS` carries what differs between the buffer on screen and the newest frame.
@Suite struct BufferDamageTests {
    static let a = DamageRect(x: 0, y: 0, width: 10, height: 10)
    static let b = DamageRect(x: 50, y: 20, width: 5, height: 5)
    static let c = DamageRect(x: 100, y: 100, width: 30, height: 2)

    /// Double buffering: frame 1 goes whole into buffer 0, frame 2 into buffer 1, frame 3 into
    /// buffer 0 again, which then lacks frames 2's and 3's damage.
    @Test func aBufferLacksTheDamageSinceTheFrameItHolds() {
        var history = BufferDamage(bufferCount: 2)
        history.record(nil)  // the first frame: drawn whole
        #expect(history.missing(in: 0) == nil, "a buffer holding nothing takes the whole frame")
        history.filled(0)
        history.record([Self.a])
        #expect(history.missing(in: 1) == nil)
        #expect(history.missing(in: 0) == [Self.a], "on screen: only frame 2's damage differs")
        history.filled(1)
        history.record([Self.b])
        #expect(history.missing(in: 0) == [Self.a, Self.b], "the back buffer lacks frames 2 and 3")
        #expect(history.missing(in: 1) == [Self.b])
        history.filled(0)
        #expect(history.missing(in: 0) == [], "holds the newest frame")
        history.record([])
        #expect(history.missing(in: 1) == [Self.b], "an empty frame adds nothing")
    }

    /// A frame drawn whole since, a buffer older than the history, and new buffers all mean the
    /// whole frame.
    @Test func unknownDifferencesAreWhole() {
        var history = BufferDamage(bufferCount: 2)
        history.record(nil)
        history.filled(0)
        history.record([Self.a])
        history.filled(1)
        history.record(nil)  // a resize or a failed frame: drawn whole
        #expect(history.missing(in: 0) == nil)
        #expect(history.missing(in: 1) == nil)
        history.filled(1)
        for _ in 0..<BufferDamage.depth { history.record([Self.c]) }
        #expect(history.missing(in: 1) == Array(repeating: Self.c, count: BufferDamage.depth))
        history.record([Self.c])
        #expect(history.missing(in: 1) == nil, "older than the history")
        history.filled(0)
        history.forgetBuffers()
        #expect(history.missing(in: 0) == nil)
        #expect(history.missing(in: 2) == nil, "no such buffer")
    }
}
