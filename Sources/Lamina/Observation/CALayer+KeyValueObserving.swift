import Foundation

// Key-value observing of layers: the `NSObject` methods Apple's layers have, which swift-corelibs
// Foundation lacks. Every property of Lamina's table posts a change when a setter (or
// `setValue(_:forKey:)`) gives it a different value, as does every key stored with
// `setValue(_:forKey:)`, the timing keys, `frame`, `autoresizingMask` and the dynamic-range keys.
// Changes are sent synchronously on the setting thread, after the value is stored.

extension CALayer: LaminaKeyValueObserving {
    /// The layer's observer list, made on first use.
    var observerList: KeyValueObserverList {
        if let list = keyRecord.observers { return list }
        let list = KeyValueObserverList()
        keyRecord.observers = list
        return list
    }

    /// Registers `observer` to be sent changes of the value at `keyPath` (Foundation's
    /// `addObserver(_:forKeyPath:options:context:)`). The observer conforms to `NSKeyValueObserving`
    /// (on Linux in place of overriding `NSObject`'s method) and is held weakly; the change dictionary
    /// holds values as `value(forKeyPath:)` returns them. A key path with several keys is watched
    /// through its first key.
    public func addObserver(
        _ observer: NSObject, forKeyPath keyPath: String, options: NSKeyValueObservingOptions = [],
        context: UnsafeMutableRawPointer?
    ) {
        observerList.add(observer, keyPath: keyPath, of: self, options: options, context: context) {
            [weak self] in self?.value(forKeyPath: keyPath)
        }
    }

    /// Removes the most recent registration of `observer` for `keyPath` (Foundation's
    /// `removeObserver(_:forKeyPath:)`); nothing happens when there is none (Apple raises).
    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String) {
        keyRecord.observers?.remove(
            observer: observer, key: Self.rootKey(keyPath), context: nil, matchingContext: false)
    }

    /// Removes the most recent registration of `observer` for `keyPath` with `context` (Foundation's
    /// `removeObserver(_:forKeyPath:context:)`).
    public func removeObserver(_ observer: NSObject, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?) {
        keyRecord.observers?.remove(
            observer: observer, key: Self.rootKey(keyPath), context: context, matchingContext: true)
    }

    /// Tells the observers of `key` that its value is about to change (Foundation's manual
    /// notification, for a subclass's own properties); pair it with `didChangeValue(forKey:)`.
    public func willChangeValue(forKey key: String) {
        keyRecord.observers?.willChange(key)
    }

    /// Tells the observers of `key` that its value changed, after `willChangeValue(forKey:)`.
    public func didChangeValue(forKey key: String) {
        keyRecord.observers?.didChange(key)
    }

    /// The first key of a key path.
    static func rootKey(_ keyPath: String) -> String {
        keyPath.split(separator: ".", maxSplits: 1).first.map(String.init) ?? keyPath
    }

    /// Runs `body`, which sets `key`, telling the observers of `key` before and after, and records
    /// that the key was given a value.
    func settingKey(_ key: String, _ body: () -> Void) {
        keyRecord.noteSet(key)
        guard let list = keyRecord.observers, list.observes(key) else { return body() }
        list.willChange(key)
        body()
        list.didChange(key)
    }
}

extension LaminaKeyValueObserving where Self: CALayer {
    /// Observes the property at `keyPath`: `changeHandler` is called with the layer and the change
    /// each time the property is given a different value, synchronously on the setting thread
    /// (Foundation's `observe(_:options:changeHandler:)`). Keep the returned observation; releasing
    /// it, or calling `invalidate()`, ends it.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        observerList.observe(
            self, keyPath, key: Self.observedKey(keyPath, in: Self.layerKeys()), options: options,
            handler: changeHandler)
    }

    /// The key each observable property's Swift key path names (`\.isHidden` is `"hidden"`).
    static func layerKeys() -> [AnyKeyPath: String] {
        [
            \Self.bounds: "bounds", \Self.position: "position", \Self.anchorPoint: "anchorPoint",
            \Self.anchorPointZ: "anchorPointZ", \Self.zPosition: "zPosition", \Self.transform: "transform",
            \Self.sublayerTransform: "sublayerTransform", \Self.frame: "frame",
            \Self.isGeometryFlipped: "geometryFlipped", \Self.opacity: "opacity", \Self.isHidden: "hidden",
            \Self.backgroundColor: "backgroundColor", \Self.cornerRadius: "cornerRadius",
            \Self.maskedCorners: "maskedCorners", \Self.cornerCurve: "cornerCurve", \Self.borderWidth: "borderWidth",
            \Self.borderColor: "borderColor", \Self.masksToBounds: "masksToBounds", \Self.name: "name",
            \Self.shadowColor: "shadowColor", \Self.shadowOpacity: "shadowOpacity",
            \Self.shadowRadius: "shadowRadius", \Self.shadowOffset: "shadowOffset", \Self.shadowPath: "shadowPath",
            \Self.contents: "contents", \Self.contentsRect: "contentsRect", \Self.contentsCenter: "contentsCenter",
            \Self.contentsScale: "contentsScale", \Self.contentsGravity: "contentsGravity",
            \Self.allowsEdgeAntialiasing: "allowsEdgeAntialiasing", \Self.allowsGroupOpacity: "allowsGroupOpacity",
            \Self.edgeAntialiasingMask: "edgeAntialiasingMask", \Self.minificationFilter: "minificationFilter",
            \Self.magnificationFilter: "magnificationFilter", \Self.minificationFilterBias: "minificationFilterBias",
            \Self.isOpaque: "opaque", \Self.isDoubleSided: "doubleSided", \Self.shouldRasterize: "shouldRasterize",
            \Self.rasterizationScale: "rasterizationScale", \Self.beginTime: "beginTime",
            \Self.timeOffset: "timeOffset", \Self.speed: "speed", \Self.duration: "duration",
            \Self.repeatCount: "repeatCount", \Self.repeatDuration: "repeatDuration",
            \Self.autoreverses: "autoreverses", \Self.fillMode: "fillMode", \Self.autoresizingMask: "autoresizingMask",
            \Self.contentsFormat: "contentsFormat", \Self.preferredDynamicRange: "preferredDynamicRange",
            \Self.toneMapMode: "toneMapMode", \Self.contentsHeadroom: "contentsHeadroom",
            \Self.wantsExtendedDynamicRangeContent: "wantsExtendedDynamicRangeContent",
            \Self.wantsDynamicContentScaling: "wantsDynamicContentScaling",
        ]
    }
}
