import Foundation
import LaminaCore
import LaminaProtocol

/// Seeds for shadows (issue 21): every shadow property set and animated on layers the closed form
/// draws (a rounded background, an elliptical and a rectangular shadowPath) and on ones it does not (an
/// arbitrary path), and the hostile values (NaN, negative and huge radii, huge and NaN paths).
extension SeedCorpus {
    /// A rounded card with a shadow, an avatar with an elliptical shadowPath and a star-shaped one.
    static var shadowTreeOperations: [LayerOperation] {
        typealias S = SetOperation
        return [
            .createLayer(1), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(1, CGPoint(x: 32, y: 24)),
            .createLayer(2), S.bounds(2, CGRect(x: 0, y: 0, width: 30, height: 20)),
            S.position(2, CGPoint(x: 20, y: 15)),
            S.backgroundColor(2, red), S.cornerRadius(2, 6), S.shadowOpacity(2, 0.5), S.shadowRadius(2, 4),
            S.shadowOffset(2, 0, 3), S.shadowColor(2, blue),
            .createLayer(3), S.bounds(3, CGRect(x: 0, y: 0, width: 16, height: 16)),
            S.position(3, CGPoint(x: 48, y: 12)),
            S.backgroundColor(3, blue), S.shadowOpacity(3, 1), S.shadowRadius(3, 0),
            S.shadowPath(3, CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 16, height: 16))), S.masksToBounds(3, true),
            .createLayer(4), S.bounds(4, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(4, CGPoint(x: 32, y: 24)),
            S.shadowOpacity(4, 0.75), S.shadowPath(4, star), S.shadowOffset(4, -2, 2),
            .setSublayers(1, [2, 3, 4]), .setRoot(display: 0, layer: 1),
        ]
    }

    /// Animations of every shadow property.
    static var shadowAnimations: [LayerOperation] {
        [
            .addAnimation(
                2, animation(61, .basic(target("shadowRadius"), BasicValues(from: .number(0), to: .number(12))))),
            .addAnimation(2, animation(62, .basic(target("shadowOpacity"), BasicValues(to: .number(1))))),
            .addAnimation(2, animation(63, .basic(target("shadowOffset.height"), BasicValues(by: .number(8))))),
            .addAnimation(
                2, animation(64, .basic(target("shadowColor"), BasicValues(from: .color(red), to: .color(nil))))),
            .addAnimation(
                3,
                animation(
                    65,
                    .basic(
                        target("shadowPath"),
                        BasicValues(
                            from: .path(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 16, height: 16))),
                            to: .path(CGPath(ellipseIn: CGRect(x: -4, y: -4, width: 24, height: 24))))))),
            .addAnimation(
                2,
                animation(
                    66,
                    .keyframe(
                        target("shadowOffset"),
                        Keyframes(values: [.size(CGSize(width: 0, height: 0)), .size(CGSize(width: 6, height: -6))])))),
        ]
    }

    static func shadowClientMessages() -> [(String, ClientMessage)] {
        [
            ("commit-shadows", .commit(serial: 60, operations: shadowTreeOperations)),
            ("commit-shadow-animations", .commit(serial: 61, operations: shadowTreeOperations + shadowAnimations)),
        ]
    }

    static func shadowHostile() -> [(String, [UInt8])] {
        typealias S = SetOperation
        let card: [LayerOperation] = [
            .createLayer(1), S.bounds(1, CGRect(x: 0, y: 0, width: 64, height: 48)),
            S.position(1, CGPoint(x: 32, y: 24)), S.backgroundColor(1, red), S.shadowOpacity(1, 1),
            .setRoot(display: 0, layer: 1),
        ]
        let nanPath = CGMutablePath()
        nanPath.move(to: CGPoint(x: CGFloat.nan, y: 0))
        nanPath.addLine(to: CGPoint(x: 10, y: 10))
        let huge = CGRect(x: -1e300, y: -1e300, width: 1e300, height: 1e300)
        return [
            ("shadow-nan-radius", commit(card + [S.shadowRadius(1, .nan)])),
            ("shadow-negative-radius", commit(card + [S.shadowRadius(1, -4)])),
            ("shadow-huge-radius", commit(card + [S.shadowRadius(1, 1e300)])),
            ("shadow-nan-offset", commit(card + [S.shadowOffset(1, 0, .infinity)])),
            ("shadow-huge-offset", commit(card + [S.shadowOffset(1, 1e300, -1e300)])),
            ("shadow-nan-opacity", commit(card + [S.shadowOpacity(1, .nan)])),
            ("shadow-nan-path", commit(card + [S.shadowPath(1, nanPath)])),
            ("shadow-huge-path", commit(card + [S.shadowPath(1, CGPath(ellipseIn: huge))])),
            ("shadow-bad-colour", commit(card + [S.shadowColor(1, RGBAColor(red: 2, green: 0, blue: 0, alpha: 1))])),
        ]
    }
}
