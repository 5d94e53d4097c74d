// Gradient layers as display-list data: when a CAGradientLayer draws nothing (Apple-run GNUstep tests,
// PR #100), its stops as the instances carry them, and its place in the paint order.
import Foundation
import LaminaCore
import LaminaProtocol
import Testing

@testable import LaminaServer

@Suite struct GradientDisplayListTests {
    static let red = RGBAColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = RGBAColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// A 100×80 display whose root is gradient layer 1 with `extra` set.
    static func build(_ extra: [LayerProperty], root: [LayerProperty] = []) throws -> DisplayList {
        let tree = try RenderTree().applying(
            [
                .createLayer(1, .gradient), .set(1, .bounds(CGRect(x: 0, y: 0, width: 80, height: 60))),
                .set(1, .position(CGPoint(x: 40, y: 30))),
            ] + extra.map { .set(1, $0) } + [.setRoot(display: 0, layer: 1)], displayCount: 1)
        return DisplayListBuilder.build(trees: [tree], display: 0, width: 100, height: 80)
    }

    static func gradients(_ list: DisplayList) -> [GradientInstance] {
        list.instances(of: .gradient, as: GradientInstance.self)
    }

    /// Apple-run: nil, empty and one-colour arrays draw nothing; so does a locations array whose count
    /// differs from the colours' (notes T34); a radial gradient whose points share an x or a y (T38),
    /// and an axial one whose points coincide.
    @Test func whatDrawsNothing() throws {
        let cases: [[LayerProperty]] = [
            [], [.colors([])], [.colors([Self.red])], [.colors([Self.red, Self.blue]), .locations([0, 0.5, 1])],
            [
                .colors([Self.red, Self.blue]), .gradientType(.radial), .startPoint(CGPoint(x: 0.5, y: 0.5)),
                .endPoint(CGPoint(x: 0.5, y: 1)),
            ],
            [
                .colors([Self.red, Self.blue]), .startPoint(CGPoint(x: 0.3, y: 0.3)),
                .endPoint(CGPoint(x: 0.3, y: 0.3)),
            ],
        ]
        for extra in cases { #expect(Self.gradients(try Self.build(extra)).isEmpty, "\(extra)") }
        #expect(Self.gradients(try Self.build([.colors([Self.red, Self.blue])])).count == 1)
    }

    /// Two stops: one instance over the whole range, the points in layer coordinates, the colours and
    /// locations packed, the layer's rounded bounds and corner mask.
    @Test func twoStopsAreOneInstance() throws {
        let list = try Self.build([.colors([Self.red, Self.blue]), .cornerRadius(10), .opacity(0.5)])
        let instance = try #require(Self.gradients(list).first)
        // The start point, then the axis (0, 60) over its squared length.
        #expect(instance.points == SIMD4(40, 0, 0, Float(60.0 / 3600)))
        #expect(instance.rect == SIMD4(0, 0, 80, 60))
        #expect(instance.params == SIMD4(10, 15, 0, 0))
        #expect(abs(instance.range.z - 0.5) <= 1 / 255 && instance.range.w == 2)
        #expect(instance.range.x < -1e30 && instance.range.y > 1e30)
        // Half floats: 0 in the low half, 1 (0x3C00) in the high half.
        #expect(instance.locations.x == 0x3C00_0000)
        #expect(instance.colorsLow.x == 0xFF00_00FF && instance.colorsLow.y == 0xFFFF_0000)
    }

    /// Ten stops: two instances, the first over t < location 7, the second from it, sharing stop 7.
    @Test func moreThanEightStopsAreSplitIntoRanges() throws {
        let colors = (0..<10).map { RGBAColor(red: Double($0) / 9, green: 0, blue: 0, alpha: 1) }
        let list = try Self.build([.colors(colors)])
        let parts = Self.gradients(list)
        #expect(parts.count == 2)
        #expect(parts.map(\.range.w) == [8, 3])
        #expect(parts[0].range.y == Float(7.0 / 9))
        #expect(parts[1].range.x == Float(7.0 / 9))
        #expect(parts[1].range.y > 1e30)
        #expect(list.batches.filter { $0.kind == DrawKind.gradient.id }.count == 1)
    }

    /// Locations are made non-decreasing (those outside 0...1 are kept, for shimmers); past 64 stops
    /// the gradient is resampled.
    @Test func stopsAsDrawn() throws {
        var gradient = GradientLayerState()
        gradient.colors = [Self.red, Self.blue, Self.red]
        gradient.locations = [-1, 0.8, 0.5]
        let stops = try #require(DisplayListBuilder.gradientStops(gradient))
        #expect(stops.map(\.location) == [-1, 0.8, 0.8])
        gradient.colors = (0..<100).map { RGBAColor(red: Double($0 % 2), green: 0, blue: 0, alpha: 1) }
        gradient.locations = nil
        #expect(DisplayListBuilder.gradientStops(gradient)?.count == 64)
        // White to clear halfway is half-transparent white (unpremultiplied interpolation).
        let white = RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        let middle = DisplayListBuilder.color(
            of: [.init(location: 0, color: white), .init(location: 1, color: .clear)], at: 0.5)
        #expect(middle == RGBAColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.5))
    }

    /// Apple-run (PR #100): the gradient lies over the background colour and under the contents, and
    /// is shaped by cornerRadius even without masksToBounds (the instance carries the radius).
    @Test func theGradientLiesOverTheBackground() throws {
        let list = try Self.build([.colors([Self.red, Self.blue]), .backgroundColor(Self.blue)])
        let order = list.batches.map { DrawKind.all[$0.kind].name }
        #expect(order == ["opaqueFill", "gradient"])
    }
}
