import Foundation
import LaminaCore
import LaminaProtocol
import LaminaServer
import LaminaVulkan
import Testing

/// CAReplicatorLayer drawn through the Vulkan renderer: the copies' places (the instance transform's
/// powers about the replicator's anchor), their colours (`instanceColor` plus the offsets, multiplying
/// the sublayers' colours) and their time (`instanceDelay`), each pixel computed in the test. Sources:
/// Apple's CAReplicatorLayer reference ("instanceTransform: the transform matrix applied to the
/// previous instance"; "instanceDelay: the delay, in seconds, between replicated copies"; the colour
/// offsets "added to the color of each successive instance"), spec §3.4 and E16.
@Suite struct ReplicatorPixelTests: PixelTestSuite {
    static let opaqueBlack = SIMD4<Float>(0, 0, 0, 1)

    /// Draws `ops` at media time `time` on a `width`×`height` display cleared to `clear`, asserting no
    /// validation message.
    static func render(
        _ ops: [LayerOperation], width: Int, height: Int, clear: SIMD4<Float> = opaqueBlack, time: Double = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bitmap {
        try renderOperations(
            ops, width: width, height: height, clear: clear, time: time, sourceLocation: sourceLocation)
    }

    static func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> RGBAColor {
        RGBAColor(red: r, green: g, blue: b, alpha: a)
    }

    /// E16, the reflection: a 60×30 replicator at (10, 10) over a white root, holding a red top half and
    /// a blue bottom half; `instanceCount` 2, `instanceTransform` translate (0, height + 2, 0) then scale
    /// (1, −1, 0), `instanceAlphaOffset` −0.6. The copy is the original mirrored about the replicator's
    /// middle and moved down height + 2: blue rows 42..<57, red rows 57..<72, each at alpha 0.4 over
    /// white; the two rows between (40..<42) stay white.
    @Test func e16ReflectionIsAMirroredCopyTwoPointsBelowAtAlphaPointFour() throws {
        let height: CGFloat = 30
        let reflection = CATransform3DScale(CATransform3DMakeTranslation(0, height + 2, 0), 1, -1, 0)
        let ops =
            Self.layer(1, frame: CGRect(x: 0, y: 0, width: 80, height: 100), [.backgroundColor(Self.color(1, 1, 1))])
            + Self.layer(
                2, .replicator, frame: CGRect(x: 10, y: 10, width: 60, height: height),
                [.instanceCount(2), .instanceTransform(reflection), .instanceAlphaOffset(-0.6)])
            + Self.layer(3, frame: CGRect(x: 0, y: 0, width: 60, height: 15), [.backgroundColor(Self.color(1, 0, 0))])
            + Self.layer(4, frame: CGRect(x: 0, y: 15, width: 60, height: 15), [.backgroundColor(Self.color(0, 0, 1))])
            + [.setSublayers(2, [3, 4]), .setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        let bitmap = try Self.render(ops, width: 80, height: 100)
        // The copy's alpha: 1 − 0.6 = 0.4, on the 8-bit step 102; white shows through at 255 − 102 = 153.
        let faded = 153
        for x in [10, 40, 69] {
            Self.expectClose(Self.pixel(bitmap, x, 10), [255, 0, 0, 255], "original red at (\(x), 10)")
            Self.expectClose(Self.pixel(bitmap, x, 39), [0, 0, 255, 255], "original blue at (\(x), 39)")
            for y in 40..<42 {
                Self.expectClose(Self.pixel(bitmap, x, y), [255, 255, 255, 255], "gap at (\(x), \(y))")
            }
            for y in [42, 50, 56] {
                Self.expectClose(Self.pixel(bitmap, x, y), [faded, faded, 255, 255], "mirrored blue at (\(x), \(y))")
            }
            for y in [57, 65, 71] {
                Self.expectClose(Self.pixel(bitmap, x, y), [255, faded, faded, 255], "mirrored red at (\(x), \(y))")
            }
            Self.expectClose(Self.pixel(bitmap, x, 72), [255, 255, 255, 255], "below the copy at (\(x), 72)")
        }
        // Outside the replicator's columns nothing is drawn.
        Self.expectClose(Self.pixel(bitmap, 9, 50), [255, 255, 255, 255], "left of the copy")
        Self.expectClose(Self.pixel(bitmap, 70, 50), [255, 255, 255, 255], "right of the copy")
    }

    /// The activity spinner: 12 bars turned by 2π/12 about the replicator's centre, `instanceDelay`
    /// 1.2 s / 12, and one opacity animation on the bar, 1 → 0 over 1.2 s, repeating. At media time `t`
    /// bar k shows the animation at t − 0.1·k: opacity 1 − ((t − 0.1·k) mod 1.2) / 1.2.
    @Test(arguments: [100.03, 100.05, 100.67])
    func spinnerBarsFadeOneDelayApart(_ time: Double) throws {
        let duration = 1.2
        let fade = AnimationRecord(
            timing: MediaTiming(duration: duration, repeatCount: .infinity), timingFunction: nil,
            isRemovedOnCompletion: false,
            content: .basic(
                PropertyTarget(keyPath: try #require(LayerKeyPath("opacity"))),
                BasicValues(from: .number(1), to: .number(0))))
        let ops =
            Self.layer(
                1, .replicator, frame: CGRect(x: 0, y: 0, width: 100, height: 100),
                [
                    .instanceCount(12), .instanceTransform(CATransform3DMakeRotation(2 * .pi / 12, 0, 0, 1)),
                    .instanceDelay(duration / 12),
                ])
            + Self.layer(2, frame: CGRect(x: 46, y: 5, width: 8, height: 20), [.backgroundColor(Self.color(1, 1, 1))])
            + [
                .setSublayers(1, [2]), .addAnimation(2, AttachedAnimation(id: 1, key: "fade", record: fade)),
                .setRoot(display: 0, layer: 1),
            ]
        let bitmap = try Self.render(ops, width: 100, height: 100, time: time)
        for k in 0..<12 {
            let phase = (time - 0.1 * Double(k)).truncatingRemainder(dividingBy: duration)
            let opacity = 1 - phase / duration
            let angle = 2 * Double.pi * Double(k) / 12
            // The bar's centre (50, 15) turned about (50, 50) by k steps (y down: clockwise on screen).
            let x = Int((50 + 35 * sin(angle)).rounded(.down))
            let y = Int((50 - 35 * cos(angle)).rounded(.down))
            let value = Int((opacity * 255).rounded())
            Self.expectClose(
                Self.pixel(bitmap, x, y), [value, value, value, 255], "bar \(k) at t \(time)", tolerance: 3)
        }
        // The centre is not covered by any bar.
        Self.expectClose(Self.pixel(bitmap, 50, 50), [0, 0, 0, 255], "centre")
    }

    /// `instanceColor` plus k times the offsets, clamped, multiplies every colour of copy k: the
    /// sublayer's background (0.8, 1, 0.6) and its white border. Copies 20 points apart over black.
    /// The copy's alpha multiplies each drawing as a layer's opacity does, so the border is drawn at
    /// that alpha over the background, itself at that alpha over black.
    @Test func instanceColorAndOffsetsMultiplyEachCopysColours() throws {
        let ops =
            Self.layer(
                1, .replicator, frame: CGRect(x: 0, y: 0, width: 100, height: 40),
                [
                    .instanceCount(4), .instanceTransform(CATransform3DMakeTranslation(20, 0, 0)),
                    .instanceColor(Self.color(1, 0.5, 0, 1)), .instanceRedOffset(-0.5), .instanceGreenOffset(0.25),
                    .instanceBlueOffset(0.5), .instanceAlphaOffset(-0.25),
                ])
            + Self.layer(
                2, frame: CGRect(x: 5, y: 10, width: 12, height: 12),
                [.backgroundColor(Self.color(0.8, 1, 0.6)), .borderWidth(2), .borderColor(Self.color(1, 1, 1))])
            + [.setSublayers(1, [2]), .setRoot(display: 0, layer: 1)]
        let bitmap = try Self.render(ops, width: 100, height: 40)
        for k in 0..<4 {
            let kd = Double(k)
            let m = [1 - 0.5 * kd, 0.5 + 0.25 * kd, 0.5 * kd, 1 - 0.25 * kd].map { min(max($0, 0), 1) }
            func tinted(_ c: [Double]) -> [Double] { [c[0] * m[0] * m[3], c[1] * m[1] * m[3], c[2] * m[2] * m[3]] }
            func bytes(_ c: [Double]) -> [Int] { c.map { Int(($0 * 255).rounded()) } + [255] }
            let background = tinted([0.8, 1, 0.6])
            let border = zip(tinted([1, 1, 1]), background).map { $0 + $1 * (1 - m[3]) }
            let x0 = 5 + 20 * k
            Self.expectClose(Self.pixel(bitmap, x0 + 6, 16), bytes(background), "copy \(k)'s background", tolerance: 3)
            Self.expectClose(Self.pixel(bitmap, x0, 16), bytes(border), "copy \(k)'s border", tolerance: 3)
        }
    }

    /// Replicators multiply: two rows of a replicator of three (2 × 3 = 6 squares), each square where
    /// both transforms put it, with the gaps between them empty.
    @Test func nestedReplicatorsDrawTwoTimesThreeCopies() throws {
        let ops =
            Self.layer(
                1, .replicator, frame: CGRect(x: 0, y: 0, width: 80, height: 60),
                [.instanceCount(2), .instanceTransform(CATransform3DMakeTranslation(0, 25, 0))])
            + Self.layer(
                2, .replicator, frame: CGRect(x: 0, y: 0, width: 80, height: 60),
                [.instanceCount(3), .instanceTransform(CATransform3DMakeTranslation(25, 0, 0))])
            + Self.layer(3, frame: CGRect(x: 5, y: 5, width: 10, height: 10), [.backgroundColor(Self.color(0, 1, 0))])
            + [.setSublayers(1, [2]), .setSublayers(2, [3]), .setRoot(display: 0, layer: 1)]
        let bitmap = try Self.render(ops, width: 80, height: 60)
        var lit = 0
        for y in 0..<60 {
            for x in 0..<80 where Self.pixel(bitmap, x, y)[1] > 128 { lit += 1 }
        }
        #expect(lit == 6 * 100)
        for row in 0..<2 {
            for column in 0..<3 {
                let (x, y) = (5 + 25 * column, 5 + 25 * row)
                Self.expectClose(Self.pixel(bitmap, x, y), [0, 255, 0, 255], "square \(row), \(column) at its corner")
                Self.expectClose(Self.pixel(bitmap, x + 9, y + 9), [0, 255, 0, 255], "square \(row), \(column)")
                Self.expectClose(Self.pixel(bitmap, x + 12, y + 12), [0, 0, 0, 255], "beside square \(row), \(column)")
            }
        }
    }
}
