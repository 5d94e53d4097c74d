import Foundation
import Testing

@testable import Lamina

// When actions are looked up and what `presentation()` shows (issue 24, point 7), found by running
// public snippets as a user would; the values are Apple's, as issue 24 states them.

/// A delegate whose action for `opacity` fades from the layer's opacity as it reads it then.
private final class FadeFromCurrentDelegate: NSObject, CALayerDelegate {
    var seen: [Float] = []

    func action(for layer: CALayer, forKey event: String) -> (any CAAction)? {
        guard event == "opacity" else { return nil }
        seen.append(layer.opacity)
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = layer.opacity
        fade.duration = 0.2
        return fade
    }
}

@Suite(.serialized) struct ActionTimingTests {
    @Test func theActionIsLookedUpBeforeTheNewValueIsStored() throws {
        // Apple (issue 24): a committed layer at opacity 1 whose delegate's action is a
        // CABasicAnimation with fromValue = layer.opacity and duration 0.2: setting opacity 0 fades
        // from 1, because the action is looked up before the value is stored; the model reads 0.
        let delegate = FadeFromCurrentDelegate()
        let layer = CALayer()
        layer.delegate = delegate
        layer.hasBeenCommitted = true
        CATransaction.begin()
        layer.opacity = 0
        CATransaction.commit()
        #expect(delegate.seen == [1])
        let fade = try #require(layer.animation(forKey: "opacity") as? CABasicAnimation)
        #expect((fade.fromValue as? Float) == 1)
        #expect(fade.duration == 0.2)
        #expect(layer.opacity == 0)
        layer.removeAllAnimations()
    }

    @Test func customKeysLookTheirActionUpFirstToo() {
        // The same order for a custom key set with setValue(_:forKey:).
        final class Reader: NSObject, CALayerDelegate {
            var seen: [Int?] = []
            func action(for layer: CALayer, forKey event: String) -> (any CAAction)? {
                if event == "level" { seen.append(layer.value(forKey: "level") as? Int) }
                return nil
            }
        }
        let reader = Reader()
        let layer = CALayer()
        layer.setValue(1, forKey: "level")
        layer.delegate = reader
        layer.setValue(2, forKey: "level")
        #expect(reader.seen == [1])
        #expect(layer.value(forKey: "level") as? Int == 2)
    }

    @Test func presentationShowsTheLastCommitNotTheOpenTransaction() throws {
        // Apple (issue 24): a committed layer at (70, 70), position set to (100, 100), then
        // presentation()?.position in the same transaction: (70, 70). Once committed: (100, 100).
        let layer = CALayer()
        layer.position = CGPoint(x: 70, y: 70)
        layer.hasBeenCommitted = true
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.position = CGPoint(x: 100, y: 100)
        #expect(try #require(layer.presentation()).position == CGPoint(x: 70, y: 70))
        #expect(layer.position == CGPoint(x: 100, y: 100))
        CATransaction.commit()
        // What a commit does for the layer (CAContext.changeOperations): it is sent again.
        layer.hasBeenCommitted = true
        #expect(try #require(layer.presentation()).position == CGPoint(x: 100, y: 100))
    }
}
