import Foundation
import Testing

@testable import Lamina

// Key-value observing of layers and animations (issue 24, point 6): Foundation's API, which
// swift-corelibs Foundation lacks, so that Apple code observing a layer compiles. Expected values are
// Apple's, as GNUstep's QuartzCore tests observed them on macOS (issue 24), and Foundation's
// documented behaviour (NSKeyValueObserving.h).

/// Records every change it is sent.
private final class Watcher: NSObject, NSKeyValueObserving {
    var changes: [(keyPath: String, change: [NSKeyValueChangeKey: Any], context: UnsafeMutableRawPointer?)] = []

    func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        changes.append((keyPath ?? "", change ?? [:], context))
    }

    func count(_ key: String) -> Int { changes.filter { $0.keyPath == key }.count }
}

/// A subclass with a property of its own, observed by its stored name.
private final class ProgressLayer: CALayer {
    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }
}

@Suite("Observation: key-value observing")
struct KeyValueObservingTests {
    @Test func everyGeometrySetterPostsOneChange() {
        // Apple: setting bounds, position, anchorPoint, anchorPointZ, zPosition, transform,
        // sublayerTransform, opacity, contentsScale and masksToBounds posts one change each; setting
        // a position to the value it already has posts nothing; after removeObserver nothing is sent.
        let watcher = Watcher()
        let layer = CALayer()
        let keys = [
            "bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "transform", "sublayerTransform",
            "opacity", "contentsScale", "masksToBounds",
        ]
        for key in keys { layer.addObserver(watcher, forKeyPath: key, options: .old, context: nil) }
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        layer.position = CGPoint(x: 1, y: 2)
        layer.anchorPoint = .zero
        layer.anchorPointZ = 3
        layer.zPosition = 4
        layer.transform = CATransform3DMakeScale(2, 2, 2)
        layer.sublayerTransform = CATransform3DMakeTranslation(1, 1, 1)
        layer.opacity = 0.5
        layer.contentsScale = 2
        layer.masksToBounds = true
        for key in keys { #expect(watcher.count(key) == 1, "\(key)") }
        layer.position = CGPoint(x: 1, y: 2)
        #expect(watcher.count("position") == 1, "the same position posts nothing")
        for key in keys { layer.removeObserver(watcher, forKeyPath: key) }
        layer.opacity = 0.25
        #expect(watcher.count("opacity") == 1)
    }

    @Test func theChangeDictionaryHoldsOldAndNewValues() {
        // NSKeyValueObserving.h: the change carries its kind (setting), and the old and new values as
        // the options ask, boxed as value(forKey:) returns them; the context comes back; .prior sends
        // a change before, with notificationIsPrior; .initial one at registration.
        let watcher = Watcher()
        let layer = CALayer()
        var token = 7
        let context = withUnsafeMutablePointer(to: &token) { UnsafeMutableRawPointer($0) }
        layer.addObserver(watcher, forKeyPath: "opacity", options: [.old, .new], context: context)
        layer.opacity = 0.5
        let change = try? #require(watcher.changes.last)
        #expect((change?.change[.kindKey] as? NSNumber)?.uintValue == NSKeyValueChange.setting.rawValue)
        #expect((change?.change[.oldKey] as? NSNumber)?.floatValue == 1)
        #expect((change?.change[.newKey] as? NSNumber)?.floatValue == 0.5)
        #expect(change?.context == context)
        layer.removeObserver(watcher, forKeyPath: "opacity", context: context)
        let prior = Watcher()
        layer.addObserver(prior, forKeyPath: "position", options: [.initial, .prior, .new, .old], context: nil)
        #expect(prior.changes.count == 1 && (prior.changes[0].change[.newKey] as? CGPoint) == .zero)
        layer.position = CGPoint(x: 3, y: 4)
        #expect(prior.changes.count == 3)
        #expect((prior.changes[1].change[.notificationIsPriorKey] as? NSNumber)?.boolValue == true)
        #expect(prior.changes[1].change[.newKey] == nil)
        #expect(prior.changes[2].change[.newKey] as? CGPoint == CGPoint(x: 3, y: 4))
        #expect(prior.changes[2].change[.oldKey] as? CGPoint == .zero)
        layer.removeObserver(prior, forKeyPath: "position")
    }

    @Test func swiftObserveWithOldAndNewValues() {
        // Apple code as written there: `layer.observe(\.opacity, options: [.old, .new]) { layer,
        // change in change.oldValue … }`; the handler runs synchronously, after the value is stored.
        let layer = CALayer()
        var seen: [(Float?, Float?, Float)] = []
        let observation = layer.observe(\.opacity, options: [.old, .new]) { layer, change in
            seen.append((change.oldValue, change.newValue, layer.opacity))
        }
        layer.opacity = 0.5
        #expect(seen.count == 1)
        #expect(seen.first?.0 == 1 && seen.first?.1 == 0.5 && seen.first?.2 == 0.5)
        var hidden: [Bool?] = []
        let hiding = layer.observe(\.isHidden, options: .new) { _, change in hidden.append(change.newValue) }
        layer.isHidden = true
        #expect(hidden == [true])
        observation.invalidate()
        layer.opacity = 0.25
        #expect(seen.count == 1, "an invalidated observation hears nothing")
        withExtendedLifetime(hiding) {}
    }

    @Test func releasingTheObservationEndsIt() {
        let layer = CALayer()
        var count = 0
        var observation: NSKeyValueObservation? = layer.observe(\.cornerRadius) { _, _ in count += 1 }
        layer.cornerRadius = 3
        observation = nil
        layer.cornerRadius = 4
        #expect(count == 1)
        #expect(observation == nil)
    }

    @Test func everyTableKeyAndCustomKeysPost() {
        // Every CALayer key of Lamina's property table posts a change when setValue(_:forKey:) gives it a new
        // value, and so do custom keys, colours (the object given comes back) and frame.
        let layer = CALayer()
        let watcher = Watcher()
        for row in LayerPropertyDescriptor.table where row.layerClass == .layer {
            layer.addObserver(watcher, forKeyPath: row.key, options: [.new], context: nil)
        }
        layer.addObserver(watcher, forKeyPath: "custom", options: [.old, .new], context: nil)
        layer.addObserver(watcher, forKeyPath: "frame", options: [.new], context: nil)
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.backgroundColor = red
        #expect((watcher.changes.last?.change[.newKey] as? CGColor) === red)
        let image = CGImage(width: 1, height: 1, premultipliedRGBA: [0, 0, 0, 255])!
        let values: [String: Any] = [
            "bounds": CGRect(x: 0, y: 0, width: 4, height: 4), "position": CGPoint(x: 1, y: 1),
            "anchorPoint": CGPoint(x: 0, y: 0), "anchorPointZ": 1, "zPosition": 1,
            "transform": CATransform3DMakeScale(2, 2, 1), "sublayerTransform": CATransform3DMakeScale(2, 2, 1),
            "opacity": 0.5, "hidden": true, "backgroundColor": CGColor(red: 0, green: 1, blue: 0, alpha: 1),
            "cornerRadius": 2, "maskedCorners": 3, "borderWidth": 1, "borderColor": red, "masksToBounds": true,
            "name": "n", "beginTime": 1, "timeOffset": 1, "speed": 2, "geometryFlipped": true,
            "cornerCurve": "continuous", "contentsRect": CGRect(x: 0, y: 0, width: 0.5, height: 0.5),
            "contentsCenter": CGRect(x: 0, y: 0, width: 0.5, height: 0.5), "contentsScale": 2,
            "contentsGravity": "top", "allowsEdgeAntialiasing": false, "allowsGroupOpacity": false,
            "edgeAntialiasingMask": 1, "minificationFilter": "nearest", "magnificationFilter": "nearest",
            "minificationFilterBias": 1, "opaque": true, "doubleSided": false, "shouldRasterize": true,
            "rasterizationScale": 2, "contents": image, "shadowColor": red, "shadowOpacity": 0.5, "shadowRadius": 5,
            "shadowOffset": CGSize(width: 1, height: 2),
            "shadowPath": CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil),
            "filters": [CIFilter(name: "CIGaussianBlur")!], "backgroundFilters": [CIFilter(name: "CIGaussianBlur")!],
            "compositingFilter": "screenBlendMode",
        ]
        for row in LayerPropertyDescriptor.table where row.layerClass == .layer {
            let value = try? #require(values[row.key], "a value for \(row.key)")
            let before = watcher.count(row.key)
            layer.setValue(value, forKey: row.key)
            #expect(watcher.count(row.key) == before + 1, "\(row.key)")
        }
        layer.setValue(3, forKey: "custom")
        layer.setValue(4, forKey: "custom")
        #expect(watcher.count("custom") == 2)
        #expect(
            watcher.changes.last?.change[.oldKey] as? Int == 3 && watcher.changes.last?.change[.newKey] as? Int == 4)
        layer.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        #expect(watcher.count("frame") == 1)
    }

    @Test func observersAreCalledAfterTheValueIsStoredOnTheSettingThread() {
        // KVO: observeValue runs synchronously on the thread that set the value, after it is stored.
        let layer = ProgressLayer()
        var readBack: [CGFloat] = []
        let observation = layer.observe(\.progress, options: .new) { layer, _ in readBack.append(layer.progress) }
        layer.progress = 0.75
        #expect(readBack == [0.75])
        withExtendedLifetime(observation) {}
    }

    @Test func animationsAreObservable() {
        // The animation classes post changes of their properties and custom keys.
        let animation = CABasicAnimation(keyPath: "opacity")
        var durations: [(Double?, Double?)] = []
        let duration = animation.observe(\.duration, options: [.old, .new]) { _, change in
            durations.append((change.oldValue, change.newValue))
        }
        var froms = 0
        let from = animation.observe(\.fromValue) { _, _ in froms += 1 }
        animation.duration = 2
        animation.fromValue = 0.5
        #expect(durations.count == 1 && durations[0].0 == 0 && durations[0].1 == 2)
        #expect(froms == 1)
        let spring = CASpringAnimation()
        var dampings: [CGFloat?] = []
        let damping = spring.observe(\.damping, options: .new) { _, change in dampings.append(change.newValue) }
        spring.damping = 3
        #expect(dampings == [3])
        let watcher = Watcher()
        let group = CAAnimationGroup()
        group.addObserver(watcher, forKeyPath: "removedOnCompletion", options: [.old, .new], context: nil)
        group.addObserver(watcher, forKeyPath: "custom", options: [.new], context: nil)
        group.isRemovedOnCompletion = false
        group.setValue("x", forKey: "custom")
        #expect((watcher.changes.first?.change[.oldKey] as? NSNumber)?.boolValue == true)
        #expect((watcher.changes.first?.change[.newKey] as? NSNumber)?.boolValue == false)
        #expect(watcher.changes.last?.change[.newKey] as? String == "x")
        group.removeObserver(watcher, forKeyPath: "removedOnCompletion")
        group.isRemovedOnCompletion = true
        #expect(watcher.count("removedOnCompletion") == 1)
        withExtendedLifetime((duration, from, damping)) {}
    }
}
