import Foundation
import Testing

@testable import Lamina

// CALayer's initialisers as Apple's CALayer.h declares them: `init()` and `init(layer:)` are designated
// initialisers that subclasses override, and `init?(coder:)` is required (NSCoding). The subclasses
// below are spelled exactly as iOS projects write them; that this file compiles is half the test.

/// A layer subclass written the Apple way, with its own stored property (internal, not private:
/// swift-corelibs Foundation archives only top-level classes).
final class InitialiserRingLayer: CALayer {
    var ringWidth: CGFloat = 1

    override init() {
        super.init()
        ringWidth = 2
    }

    override init(layer: Any) {
        super.init(layer: layer)
        if let ring = layer as? InitialiserRingLayer { ringWidth = ring.ringWidth }
    }

    required init?(coder: NSCoder) {
        ringWidth = 3
        super.init(coder: coder)
    }
}

/// A subclass that declares no initialiser inherits all three, as in Swift on Apple platforms.
class InitialiserPlainLayer: CALayer {
    var marker = 7
}

/// A subclass of a subclass that overrides `init(layer:)` again.
final class InitialiserInnerRingLayer: InitialiserPlainLayer {
    var inner = 0

    override init() { super.init() }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? InitialiserInnerRingLayer { inner = other.inner }
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }
}

@Suite("CALayer initialisers")
struct LayerInitialiserTests {
    @Test func overriddenInitRuns() {
        // CALayer.h: `- (instancetype)init` is the designated initialiser a subclass overrides.
        #expect(InitialiserRingLayer().ringWidth == 2)
    }

    @Test func presentationCopyRunsTheSubclassInitLayer() throws {
        // Apple: "This initializer is used to create shadow copies of layers, for example, for the
        // presentationLayer method" (CALayer.h, -initWithLayer:); the subclass copies its own state.
        let layer = InitialiserRingLayer()
        layer.ringWidth = 9
        layer.opacity = 0.5
        layer.setValue(4, forKey: "custom")
        layer.hasBeenCommitted = true
        let presentation = try #require(layer.presentation())
        #expect(type(of: presentation) == InitialiserRingLayer.self)
        #expect(presentation.ringWidth == 9)
        #expect(presentation.opacity == 0.5)
        #expect(presentation.model() === layer)
        #expect((presentation.value(forKey: "custom") as? Int) == 4)
    }

    @Test func presentationOfAClassWithoutInitialisersHasItsClass() throws {
        // Apple: an inherited init(layer:) gives stored properties their initial values (7 here).
        let layer = InitialiserPlainLayer()
        layer.marker = 8
        layer.hasBeenCommitted = true
        let presentation = try #require(layer.presentation())
        #expect(type(of: presentation) == InitialiserPlainLayer.self)
        #expect(presentation.marker == 7)
    }

    @Test func presentationOfASubclassOfASubclass() throws {
        let layer = InitialiserInnerRingLayer()
        layer.inner = 5
        layer.hasBeenCommitted = true
        let presentation = try #require(layer.presentation())
        #expect(presentation.inner == 5)
    }

    @Test func initLayerCopiesModelValues() {
        // CALayer.h, -initWithLayer: copies the layer's properties (here the model values and colour
        // objects); it does not copy sublayers.
        let source = CALayer()
        source.bounds = CGRect(x: 0, y: 0, width: 30, height: 40)
        let color = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        source.backgroundColor = color
        source.addSublayer(CALayer())
        let copy = CALayer(layer: source)
        #expect(copy.bounds == CGRect(x: 0, y: 0, width: 30, height: 40))
        #expect(copy.backgroundColor === color)
        #expect(copy.sublayers == nil)
        #expect(copy.layerID != source.layerID)
    }

    @Test func requiredCoderInitialiserRuns() throws {
        // NSCoding: init?(coder:) is required; the subclass's override runs when a InitialiserRingLayer is read.
        let data = try NSKeyedArchiver.archivedData(withRootObject: InitialiserRingLayer(), requiringSecureCoding: true)
        let ring = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: InitialiserRingLayer.self, from: data))
        #expect(ring.ringWidth == 3)
    }
}
