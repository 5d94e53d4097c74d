import Foundation
import Lamina
import LaminaTesting
import Testing

/// The seed examples about contents through a real laminad, client to pixels: E08 (one image shared
/// by many layers is sent once), E12 (a sprite sheet through `contentsRect`), E49 (a `CATransition` as
/// the `contents` action) and E52 (assigning new contents cross-fades on a standalone layer).
@Suite(.serialized) final class ContentsExampleTests {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    /// An image of `width`×`height` pixels whose pixel (x, y) is `colour(x, y)` (opaque RGB).
    static func image(width: Int, height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8)) -> CGImage {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = colour(x, y)
                bytes += [r, g, b, 255]
            }
        }
        return CGImage(width: width, height: height, premultipliedRGBA: bytes)!
    }

    /// A solid opaque image.
    static func solid(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> CGImage {
        image(width: 4, height: 4) { _, _ in (r, g, b) }
    }

    /// A white root as large as the display holding `layers`, committed.
    func scene(_ context: CAContext, _ layers: [CALayer]) throws -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        for layer in layers { root.addSublayer(layer) }
        context.layer = root
        try context.synchronize()
        return root
    }

    static func rgb(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
        let p = image.pixel(x: x, y: y)
        return [Int(p.red), Int(p.green), Int(p.blue)]
    }

    static func close(_ a: [Int], _ b: [Int], within tolerance: Int = 2) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// E08 (seed 000/001/004: "one image assigned to several standalone layers: no copies"): 1,000
    /// layers showing one 2×2 image make the client send it once; the server holds one texture of
    /// 2 × 2 × 4 bytes × 4/3 (its mip chain, rounded down), and every layer draws it: each 4×4 layer
    /// shows the image's four quadrant colours.
    @Test func sharedImageIsUploadedOnceAndDrawnEverywhere() throws {
        let context = try server.connect(name: "E08")
        let quadrants = Self.image(width: 2, height: 2) { x, y in
            [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)][y * 2 + x]
        }
        var layers: [CALayer] = []
        for i in 0..<1_000 {
            let layer = CALayer()
            layer.frame = CGRect(x: (i % 50) * 4, y: (i / 50) * 4, width: 4, height: 4)
            layer.contents = quadrants
            layer.magnificationFilter = .nearest
            layers.append(layer)
        }
        _ = try scene(context, layers)
        let mine = try #require(try context.statistics().first { $0.name == "E08" })
        #expect(mine.images == 1)
        #expect(mine.textureBytes == 2 * 2 * 4 * 4 / 3)
        #expect(mine.layers == 1_001)
        // `laminactl stats` prints the same: one texture for this client.
        let stats = try ServiceTests.run(
            try ServerLifecycleTests.executable("laminactl").path, ["stats", "--socket", server.socketPath])
        #expect(stats.status == 0, "\(stats.output)")
        let row = stats.output.split(separator: "\n").first { $0.hasSuffix("\tE08") }.map(String.init) ?? ""
        #expect(row.split(separator: "\t").dropFirst().prefix(4) == ["1001", "0", "1", "21"], "\(stats.output)")
        let frame = try context.capture()
        for i in [0, 1, 49, 500, 999] {
            let x = (i % 50) * 4
            let y = (i / 50) * 4
            #expect(Self.rgb(frame, x, y) == [255, 0, 0], "layer \(i) top-left")
            #expect(Self.rgb(frame, x + 3, y) == [0, 255, 0], "layer \(i) top-right")
            #expect(Self.rgb(frame, x, y + 3) == [0, 0, 255], "layer \(i) bottom-left")
            #expect(Self.rgb(frame, x + 3, y + 3) == [255, 255, 0], "layer \(i) bottom-right")
        }
        // No layer shows it any more: the client releases it and the server frees the texture. (With
        // actions on, each layer would fade it out first and keep it until the fade ends.)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for layer in layers { layer.contents = nil }
        CATransaction.commit()
        try context.synchronize()
        _ = try context.capture()
        let after = try #require(try context.statistics().first { $0.name == "E08" })
        #expect(after.images == 0)
        #expect(after.textureBytes == 0)
    }

    /// E12 (seed 003: sprite sheet, `contentsRect` (d × 0.1, 0, 0.1, 1), `resizeAspect`,
    /// `magnificationFilter` nearest: "digit d shown, aspect kept, hard pixel edges"). The sheet is
    /// 100×10; glyph d is 10 columns wide, alternating colour A_d and white column by column. A 40×80
    /// layer shows glyph d scaled 4× into a 40×40 square centred vertically (y 20…60): every column is
    /// 4 pixels of one exact colour, with no blended pixel at the column edges.
    @Test func spriteSheetShowsOneDigitWithHardEdges() throws {
        let context = try server.connect(name: "E12")
        let colours: [(UInt8, UInt8, UInt8)] = (0..<10).map { (d: Int) -> (UInt8, UInt8, UInt8) in
            let level = UInt8(25 * d)
            return (level, 255 - level, 128)
        }
        let sheet = Self.image(width: 100, height: 10) { x, _ in
            x % 2 == 0 ? colours[x / 10] : (255, 255, 255)
        }
        var layers: [CALayer] = []
        for (slot, digit) in [3, 7].enumerated() {
            let layer = CALayer()
            layer.frame = CGRect(x: 20 + slot * 60, y: 10, width: 40, height: 80)
            layer.contents = sheet
            layer.contentsRect = CGRect(x: CGFloat(digit) * 0.1, y: 0, width: 0.1, height: 1)
            layer.contentsGravity = .resizeAspect
            layer.magnificationFilter = .nearest
            layer.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            layers.append(layer)
        }
        _ = try scene(context, layers)
        let frame = try context.capture()
        for (slot, digit) in [3, 7].enumerated() {
            let left = 20 + slot * 60
            let glyph = colours[digit]
            let a = [Int(glyph.0), Int(glyph.1), Int(glyph.2)]
            for column in 0..<10 {
                let expected = column % 2 == 0 ? a : [255, 255, 255]
                // Both edge pixels of each 4-pixel column, and rows just inside the square's edges.
                for dx in [0, 3] {
                    for y in [20, 40, 59] {
                        #expect(
                            Self.rgb(frame, left + column * 4 + dx, 10 + y) == expected,
                            "digit \(digit) column \(column)")
                    }
                }
            }
            // Aspect kept: above and below the square the background shows.
            #expect(Self.rgb(frame, left + 20, 10 + 19) == [0, 0, 0])
            #expect(Self.rgb(frame, left + 20, 10 + 60) == [0, 0, 0])
        }
    }

    /// E52 (seed 003: "on a standalone layer, assigning a new contents cross-fades automatically";
    /// decisions.md A2: a basic animation on `contents` renders as a cross-fade). Red contents become
    /// blue in a 1 s linear transaction. Both images are opaque and cover the same rectangle, so the
    /// fade is the exact mix (1 − p)·red + p·blue: (128, 0, 128) half-way, (191, 0, 64) at a quarter, with
    /// nothing of the white behind showing through. After the end only blue shows.
    @Test func newContentsCrossFadeImplicitly() throws {
        let context = try server.connect(name: "E52")
        let layer = CALayer()
        layer.frame = CGRect(x: 50, y: 25, width: 100, height: 50)
        layer.contents = Self.solid(255, 0, 0)
        _ = try scene(context, [layer])
        #expect(Self.rgb(try context.capture(), 100, 50) == [255, 0, 0])
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        layer.contents = Self.solid(0, 0, 255)
        CATransaction.commit()
        let fade = try #require(layer.animation(forKey: "contents") as? CABasicAnimation)
        try context.synchronize()
        let t0 = fade.beginTime
        let half = Self.rgb(try context.capture(at: t0 + 0.5), 100, 50)
        #expect(Self.close(half, [128, 0, 128]), "\(half)")
        let quarter = Self.rgb(try context.capture(at: t0 + 0.25), 100, 50)
        #expect(Self.close(quarter, [191, 0, 64]), "\(quarter)")
        #expect(Self.rgb(try context.capture(at: t0 + 1.5), 100, 50) == [0, 0, 255])
    }

    /// E49 (seeds 000/002: the delegate returns, for "contents", a `CATransition` of type push,
    /// subtype fromRight, duration 1, easeIn: "assigning a new image slides it in from the right").
    /// At t = 0.5 easeIn (0.42, 0, 1, 1) has progress 0.3153, so the new image's left edge is at
    /// 100 × (1 − 0.3153) ≈ 68.5 in the 100-wide layer: its left part still shows the old image
    /// (moved left by 31.5), its right part the new one.
    @Test func transitionAsTheContentsActionPushesTheNewImageIn() throws {
        let context = try server.connect(name: "E49")
        final class PushDelegate: CALayerDelegate {
            func action(for layer: CALayer, forKey event: String) -> (any CAAction)? {
                guard event == "contents" else { return nil }
                let push = CATransition()
                push.type = .push
                push.subtype = .fromRight
                push.duration = 1
                push.timingFunction = CAMediaTimingFunction(name: .easeIn)
                return push
            }
        }
        let delegate = PushDelegate()
        let layer = CALayer()
        layer.frame = CGRect(x: 50, y: 25, width: 100, height: 50)
        layer.contents = Self.solid(255, 0, 0)
        layer.masksToBounds = true
        _ = try scene(context, [layer])
        layer.delegate = delegate
        layer.contents = Self.solid(0, 0, 255)
        CATransaction.flush()
        // An action runs under its event's key (Apple's `add(_:forKey:)` from `actionForKey:`).
        let push = try #require(layer.animation(forKey: "contents") as? CATransition)
        try context.synchronize()
        let t0 = push.beginTime
        let frame = try context.capture(at: t0 + 0.5)
        // The old image slides out and fades as it goes (§4.7, "slides off to the left and fades
        // until hidden"): red at 1 − 0.3153 over white is (255, 80, 80).
        #expect(Self.close(Self.rgb(frame, 50 + 60, 50), [255, 80, 80]), "old image left of the edge")
        #expect(Self.rgb(frame, 50 + 75, 50) == [0, 0, 255], "new image right of the edge")
        #expect(Self.rgb(frame, 50 + 99, 50) == [0, 0, 255])
        let done = try context.capture(at: t0 + 1.5)
        #expect(Self.rgb(done, 50 + 10, 50) == [0, 0, 255])
        withExtendedLifetime(delegate) {}
    }
}
