import Foundation
import LaminaCore
import LaminaProtocol

/// Seeds for the layer classes the server draws (issue 20): shape and gradient layers with every
/// property set and animated, and their hostile inputs (unknown and wrong classes, NaN and huge
/// paths, dash patterns of zeros, many colours).
extension SeedCorpus {
    static let star: CGPath = {
        let path = CGMutablePath()
        for i in 0..<10 {
            let angle = Double(i) * .pi / 5
            let r = i % 2 == 0 ? 20.0 : 8.0
            let p = CGPoint(x: 32 + r * sin(angle), y: 24 - r * cos(angle))
            if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        path.addEllipse(in: CGRect(x: 4, y: 4, width: 12, height: 8))
        return path
    }()

    /// A shape layer and a gradient layer with every class property set, under a plain root.
    static var classTreeOperations: [LayerOperation] {
        typealias S = SetOperation
        return [
            .createLayer(1), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(1, CGPoint(x: 32, y: 24)),
            .createLayer(2, .shape), S.bounds(2, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(2, CGPoint(x: 32, y: 24)), S.path(2, star), S.fillColor(2, red), S.fillRule(2, "even-odd"),
            S.strokeColor(2, blue), S.lineWidth(2, 3), S.miterLimit(2, 4), S.lineCap(2, "round"),
            S.lineJoin(2, "bevel"), S.lineDashPattern(2, [4, 2, 0]), S.lineDashPhase(2, 1.5), S.strokeStart(2, 0.1),
            S.strokeEnd(2, 0.8), S.masksToBounds(2, true),
            .createLayer(3, .gradient), S.bounds(3, CGRect(x: 0, y: 0, width: 40, height: 30)),
            S.position(3, CGPoint(x: 20, y: 15)), S.colors(3, [red, blue, .clear, red]),
            S.locations(3, [0, 0.3, 0.3, 1]), S.startPoint(3, CGPoint(x: 0.5, y: 0.5)),
            S.endPoint(3, CGPoint(x: 1, y: 0.75)), S.gradientType(3, "conic"), S.cornerRadius(3, 8),
            .setSublayers(1, [3, 2]), .setRoot(display: 0, layer: 1),
        ]
    }

    /// Animations of the class properties: a progress ring, a path morph, a colour-list fade.
    static var classAnimations: [LayerOperation] {
        let square = CGMutablePath()
        square.addRect(CGRect(x: 10, y: 10, width: 20, height: 20))
        let moved = CGMutablePath()
        moved.addRect(CGRect(x: 30, y: 20, width: 10, height: 5))
        return [
            .addAnimation(2, animation(41, .basic(target("strokeEnd"), BasicValues(from: .number(0), to: .number(1))))),
            .addAnimation(2, animation(42, .basic(target("path"), BasicValues(from: .path(square), to: .path(moved))))),
            .addAnimation(2, animation(43, .basic(target("path"), BasicValues(from: .path(star), to: .path(square))))),
            .addAnimation(
                3,
                animation(44, .basic(target("colors"), BasicValues(from: .colors([red, blue]), to: .colors([blue]))))),
            .addAnimation(
                3,
                animation(
                    45,
                    .keyframe(
                        target("locations"),
                        Keyframes(values: [.numbers([0, 0.5, 0.5, 1]), .numbers([0.2, 0.2, 0.9, 1]), .numbers(nil)])))),
            .addAnimation(3, animation(46, .basic(target("startPoint.x"), BasicValues(by: .number(0.25))))),
        ]
    }

    static func classClientMessages() -> [(String, ClientMessage)] {
        [
            ("commit-classes", .commit(serial: 40, operations: classTreeOperations)),
            ("commit-class-animations", .commit(serial: 41, operations: classTreeOperations + classAnimations)),
        ]
    }

    static func classHostile() -> [(String, [UInt8])] {
        typealias S = SetOperation
        var unknownClass = WireWriter()
        unknownClass.u64(1); unknownClass.u32(1); unknownClass.u8(9); unknownClass.u64(5); unknownClass.u8(77)
        let nanPath = CGMutablePath()
        nanPath.move(to: CGPoint(x: 0, y: CGFloat.nan))
        nanPath.addLine(to: CGPoint(x: 10, y: 10))
        // More elements than a path may have: the count alone is refused while decoding.
        var tooMany = WireWriter()
        tooMany.u64(1); tooMany.u32(2); tooMany.u8(9); tooMany.u64(1); tooMany.u8(1)
        tooMany.u8(3); tooMany.u64(1); tooMany.u8(37); tooMany.bool(true); tooMany.u32(8193)
        for _ in 0..<8193 { tooMany.u8(5) }
        // As many lines as one message holds, zigzagging across the display.
        let zigzag = CGMutablePath()
        zigzag.move(to: .zero)
        for i in 0..<7_000 { zigzag.addLine(to: CGPoint(x: Double(i % 64), y: i % 2 == 0 ? 0 : 48)) }
        let manyColours = (0..<1024).map {
            RGBAColor(red: Double($0 % 2), green: 0, blue: Double($0 % 3) / 2, alpha: 1)
        }
        let plainAnimation = animation(
            1, .basic(target("strokeEnd"), BasicValues(from: .number(0), to: .number(1))))
        let shape: [LayerOperation] = [
            .createLayer(1, .shape), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            .setRoot(display: 0, layer: 1),
        ]
        return [
            ("unknown-layer-class", frame(type: 3, payload: unknownClass.bytes)),
            ("wrong-layer-class", commit([.createLayer(1), S.strokeEnd(1, 0.5)])),
            ("wrong-class-animation", commit([.createLayer(1), .addAnimation(1, plainAnimation)])),
            ("nan-path", commit(shape + [S.path(1, nanPath)])),
            ("path-too-many-elements", frame(type: 3, payload: tooMany.bytes)),
            ("zigzag-path", commit(shape + [S.path(1, zigzag), S.strokeColor(1, red), S.lineWidth(1, 9)])),
            ("dash-of-zeros", commit(shape + [S.path(1, star), S.strokeColor(1, red), S.lineDashPattern(1, [0, 0])])),
            ("negative-dash", commit(shape + [S.lineDashPattern(1, [4, -1])])),
            (
                "tiny-dash",
                commit(shape + [S.path(1, star), S.strokeColor(1, red), S.lineDashPattern(1, [1e-9, 1e-9])])
            ),
            (
                "huge-miter",
                commit(shape + [S.path(1, star), S.strokeColor(1, red), S.miterLimit(1, 1e300), S.lineWidth(1, 1e12)])
            ),
            (
                "nan-colour",
                commit([
                    .createLayer(1, .gradient), S.colors(1, [red, RGBAColor(red: .nan, green: 0, blue: 0, alpha: 1)]),
                ])
            ),
            (
                "many-colours",
                commit([
                    .createLayer(1, .gradient), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
                    S.colors(1, manyColours), .setRoot(display: 0, layer: 1),
                ])
            ),
            (
                "locations-mismatch",
                commit([
                    .createLayer(1, .gradient), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
                    S.colors(1, [red, blue]), S.locations(1, [0, 0.5, 1, 2, -3]), S.gradientType(1, "radial"),
                    .setRoot(display: 0, layer: 1),
                ])
            ),
        ]
    }
}
