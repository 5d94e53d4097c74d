import Foundation
import LaminaCore
import LaminaTesting
import Testing

@testable import LaminaProtocol

/// CodecTests: the value checks on LayerProperty (invalidReason, differences(from:to:)).
extension CodecTests {
    // MARK: LayerProperty.invalidReason

    static let invalidProperties: [(LayerProperty, String)] = [
        (.bounds(CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)), "bounds"),
        (.bounds(CGRect(x: 0, y: CGFloat.infinity, width: 1, height: 1)), "bounds"),
        (.bounds(CGRect(x: 0, y: 0, width: -CGFloat.infinity, height: 1)), "bounds"),
        (.bounds(CGRect(x: 0, y: 0, width: 1, height: CGFloat.nan)), "bounds"),
        (.bounds(CGRect(x: 0, y: 0, width: -1, height: 1)), "negative"),
        (.bounds(CGRect(x: 0, y: 0, width: 1, height: -CGFloat.leastNonzeroMagnitude)), "negative"),
        (.position(CGPoint(x: CGFloat.nan, y: 0)), "position"),
        (.position(CGPoint(x: 0, y: -CGFloat.infinity)), "position"),
        (.anchorPoint(CGPoint(x: CGFloat.infinity, y: 0)), "anchorPoint"),
        (.anchorPointZ(.nan), "anchorPointZ"),
        (.zPosition(.infinity), "zPosition"),
        (
            .transform(
                CATransform3D(
                    m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                    m31: 0, m32: 0, m33: 1, m34: .nan, m41: 0, m42: 0, m43: 0, m44: 1)), "transform"
        ),
        (
            .transform(
                CATransform3D(
                    m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                    m31: 0, m32: 0, m33: 1, m34: 0, m41: .infinity, m42: 0, m43: 0, m44: 1)), "transform"
        ),
        (
            .sublayerTransform(
                CATransform3D(
                    m11: -.infinity, m12: 0, m13: 0, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                    m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)), "sublayerTransform"
        ),
        (.opacity(.nan), "opacity"),
        (.opacity(.infinity), "opacity"),
        (.opacity(-.infinity), "opacity"),
        (.cornerRadius(-1), "cornerRadius"),
        (.cornerRadius(.nan), "cornerRadius"),
        (.cornerRadius(.infinity), "cornerRadius"),
        (.borderWidth(-0.5), "borderWidth"),
        (.borderWidth(-.infinity), "borderWidth"),
        (.backgroundColor(RGBAColor(red: 1.0000001, green: 0, blue: 0, alpha: 1)), "backgroundColor"),
        (.backgroundColor(RGBAColor(red: 0, green: -0.001, blue: 0, alpha: 1)), "backgroundColor"),
        (.backgroundColor(RGBAColor(red: 0, green: 0, blue: .nan, alpha: 1)), "backgroundColor"),
        (.borderColor(RGBAColor(red: 0, green: 0, blue: 0, alpha: 2)), "borderColor"),
        (.borderColor(RGBAColor(red: 0, green: 0, blue: 0, alpha: .infinity)), "borderColor"),
        (.maskedCorners(CACornerMask(rawValue: 16)), "maskedCorners"),
        (.maskedCorners(CACornerMask(rawValue: 0x1F)), "maskedCorners"),
        (.maskedCorners(CACornerMask(rawValue: 1 << 40)), "maskedCorners"),
        (.name(String(repeating: "n", count: WireLimits.maxStringBytes + 1)), "name"),
        (.name(String(repeating: "é", count: WireLimits.maxStringBytes / 2 + 1)), "name"),
        (.shadowRadius(-1), "shadowRadius is negative"),
        (.shadowRadius(.nan), "shadowRadius is NaN or infinite"),
        (.shadowOpacity(.infinity), "shadowOpacity is NaN or infinite"),
        (.shadowOffset(CGSize(width: 0, height: CGFloat.nan)), "shadowOffset has a NaN or infinite component"),
        (.shadowColor(RGBAColor(red: 0, green: 0, blue: 0, alpha: .nan)), "shadowColor"),
        (.shadowPath(hugePath), "shadowPath has 8193 elements, more than 8192"),
        (
            .shadowPath(CGPath(rect: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1))),
            "shadowPath has a NaN or infinite point"
        ),
    ]

    /// A path one element longer than the wire and the server allow.
    static let hugePath: CGPath = {
        let path = CGMutablePath()
        path.move(to: .zero)
        for i in 1...8192 { path.addLine(to: CGPoint(x: Double(i), y: 0)) }
        return path
    }()

    @Test(arguments: invalidProperties)
    func invalidValuesHaveAReason(_ property: LayerProperty, _ mentions: String) throws {
        let reason = try #require(property.invalidReason)
        #expect(reason.contains(mentions), "\(reason)")
    }

    static let validProperties: [LayerProperty] =
        propertyTable.filter { p in
            // The round-trip table holds some deliberately invalid values; keep the valid ones.
            switch p {
            case .bounds(let r):
                r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
                    && r.size.width >= 0 && r.size.height >= 0
            case .zPosition(let v), .anchorPointZ(let v): v.isFinite
            case .opacity(let o): o.isFinite
            case .backgroundColor(let c), .borderColor(let c): c?.isValid ?? true
            case .maskedCorners(let m): m.rawValue <= 15
            case .borderWidth(let v), .cornerRadius(let v), .lineWidth(let v): v >= 0 && v.isFinite
            default: true
            }
        } + [
            .bounds(CGRect(x: -1e300, y: -5, width: 0, height: -0.0)),
            .position(CGPoint(x: -1e300, y: 1e300)),
            .cornerRadius(-0.0),
            .borderWidth(.greatestFiniteMagnitude),
            .backgroundColor(RGBAColor(red: 0, green: 1, blue: -0.0, alpha: 1)),
            .opacity(0.5),
        ]

    @Test(arguments: validProperties)
    func validValuesHaveNoReason(_ property: LayerProperty) {
        #expect(property.invalidReason == nil)
    }

    @Test func validTableIsNotTrivial() {
        #expect(Self.validProperties.count > 40)
        #expect(Set(Self.validProperties.map(\.code)) == Set(1...16).union(37...67))
    }

    // MARK: LayerProperty.differences

    @Test func differencesFromNilListsEveryProperty() {
        let state = LayerState()
        let all = LayerProperty.differences(from: nil, to: state)
        #expect(all.map(\.code) == Array(1...36) + Array(54...58) + Array(90...92))
        var rebuilt = LayerState()
        rebuilt.name = "will be overwritten"
        rebuilt.opacity = 0.1
        for p in all { p.apply(to: &rebuilt) }
        #expect(rebuilt == state)

        var custom = LayerState()
        for p in Self.nonDefault { p.apply(to: &custom) }
        var fromScratch = LayerState()
        let listed = LayerProperty.differences(from: nil, to: custom)
        #expect(listed.count == 44)
        for p in listed { p.apply(to: &fromScratch) }
        #expect(fromScratch == custom)
    }

    @Test func equalStatesHaveNoDifferences() {
        #expect(LayerProperty.differences(from: LayerState(), to: LayerState()).isEmpty)
        var custom = LayerState()
        for p in Self.nonDefault { p.apply(to: &custom) }
        #expect(LayerProperty.differences(from: custom, to: custom).isEmpty)
    }

    /// One non-default value of each property (borderColor's default is black, so nil differs).
    static let nonDefault: [LayerProperty] = [
        .bounds(CGRect(x: 1, y: 2, width: 3, height: 4)),
        .position(CGPoint(x: 5, y: 6)),
        .anchorPoint(CGPoint(x: 0, y: 1)),
        .anchorPointZ(2),
        .zPosition(-3),
        .transform(distinctTransform),
        .sublayerTransform(CATransform3DMakeScale(2, 2, 1)),
        .opacity(0.25),
        .isHidden(true),
        .backgroundColor(red),
        .cornerRadius(8),
        .maskedCorners([.layerMinXMinYCorner]),
        .borderWidth(1),
        .borderColor(nil),
        .masksToBounds(true),
        .name("named"),
        .isGeometryFlipped(true),
        .cornerCurve(.continuous),
    ]

    @Test(arguments: nonDefault)
    func oneChangedPropertyGivesExactlyThatOne(_ property: LayerProperty) {
        var changed = LayerState()
        property.apply(to: &changed)
        #expect(LayerProperty.differences(from: LayerState(), to: changed) == [property])
        // And back.
        let back = LayerProperty.differences(from: changed, to: LayerState())
        #expect(back.count == 1)
        #expect(back.first?.code == property.code)
        // Starting from a state where everything else differs from the default too.
        var base = LayerState()
        for p in Self.nonDefault where p.code != property.code { p.apply(to: &base) }
        var both = base
        property.apply(to: &both)
        #expect(LayerProperty.differences(from: base, to: both) == [property])
    }

    @Test func twoChangedPropertiesComeInCodeOrder() {
        var changed = LayerState()
        LayerProperty.name("a").apply(to: &changed)
        LayerProperty.bounds(CGRect(x: 0, y: 0, width: 1, height: 1)).apply(to: &changed)
        #expect(
            LayerProperty.differences(from: LayerState(), to: changed)
                == [.bounds(CGRect(x: 0, y: 0, width: 1, height: 1)), .name("a")])
    }
}
