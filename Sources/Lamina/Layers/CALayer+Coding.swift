import Foundation

extension CALayer {
    /// Writes the layer under Core Animation's keys: every row of the property table, an image in
    /// `contents` as its pixels, the timing the
    /// render server does not need, the autoresizing mask and constraints, values stored under custom
    /// keys, the sublayers and the animations (with their keys). A key for which `shouldArchiveValue(forKey:)` is false is left out.
    func encodeLayer(to coder: NSCoder) {
        for property in LayerPropertyName.all(of: modelState.layerClass)
        where !property.descriptor.isClientKept && shouldArchiveValue(forKey: property.key) {
            // Colours are written from the colour objects, which keep their colour model (gray or RGB).
            let color =
                property == .backgroundColor
                ? storedBackgroundColor : property == .shadowColor ? storedShadowColor : storedBorderColor
            let isColor = property == .backgroundColor || property == .borderColor || property == .shadowColor
            let object = isColor ? color ?? NSNull() : archivedClassObject(property)
            guard let box = object.map({ ArchivedValue($0) }) ?? ArchivedValue(modelState[property]) else { continue }
            coder.encode(box, forKey: property.key)
        }
        func put(_ key: String, _ write: () -> Void) { if shouldArchiveValue(forKey: key) { write() } }
        // An image in `contents` is archived as its pixels (premultiplied RGBA, top row first).
        if let image = storedContents as? CGImage {
            put("contents") {
                coder.encode(Data(image.premultipliedRGBA) as NSData, forKey: "lamina.contents.rgba")
                coder.encode(Int64(image.width), forKey: "lamina.contents.width")
                coder.encode(Int64(image.height), forKey: "lamina.contents.height")
            }
        }
        put("duration") { coder.encode(storedTiming.duration, forKey: "duration") }
        put("repeatCount") { coder.encode(storedTiming.repeatCount, forKey: "repeatCount") }
        put("repeatDuration") { coder.encode(storedTiming.repeatDuration, forKey: "repeatDuration") }
        put("autoreverses") { coder.encode(storedTiming.autoreverses, forKey: "autoreverses") }
        put("fillMode") { coder.encode(NSString(string: storedTiming.fillMode.rawValue), forKey: "fillMode") }
        put("autoresizingMask") { coder.encode(Int64(autoresizingMask.rawValue), forKey: "autoresizingMask") }
        if let constraints = storedConstraints {
            put("constraints") { coder.encode(NSArray(array: constraints), forKey: "constraints") }
        }
        coder.encodeStoredValues(kvcStorage, prefix: "lamina.stored", archiving: shouldArchiveValue(forKey:))
        encodeFilters(to: coder)
        if !storedSublayers.isEmpty {
            put("sublayers") { coder.encode(NSArray(array: storedSublayers), forKey: "sublayers") }
        }
        CATransaction.lock()
        let entries = attachedAnimations
        CATransaction.unlock()
        guard !entries.isEmpty else { return }
        put("animations") {
            coder.encode(NSArray(array: entries.map(\.animation)), forKey: "animations")
            coder.encode(NSArray(array: entries.map { NSString(string: $0.key) }), forKey: "animationKeys")
            coder.encode(NSArray(array: entries.map { NSNumber(value: $0.isAnonymous) }), forKey: "animationsAnonymous")
        }
    }

    /// Reads what `encodeLayer(to:)` wrote into a new layer, without running actions; absent keys keep
    /// the class's defaults. False when the archive is damaged.
    func decodeLayer(from coder: NSCoder) -> Bool {
        for property in LayerPropertyName.all(of: modelState.layerClass)
        where !property.descriptor.isClientKept && coder.containsValue(forKey: property.key) {
            guard let box = coder.decodeObject(of: ArchivedValue.self, forKey: property.key),
                let value = box.layerValue(property.valueKind)
            else { return false }
            modelState[property] = value
            keyRecord.noteSet(property)
            if property.layerClass != LayerClass.layer { restoreClassObject(property, from: box.value) }
            if property == .backgroundColor { storedBackgroundColor = box.value as? CGColor }
            if property == .borderColor { storedBorderColor = box.value as? CGColor }
            if property == .shadowColor { storedShadowColor = box.value as? CGColor }
        }
        // A key in the archive was given a value: it is archived again.
        func has(_ key: String) -> Bool {
            guard coder.containsValue(forKey: key) else { return false }
            keyRecord.noteSet(key)
            return true
        }
        if has("lamina.contents.rgba"), let pixels = coder.decodeObject(of: NSData.self, forKey: "lamina.contents.rgba")
        {
            guard
                let image = CGImage(
                    width: Int(coder.decodeInt64(forKey: "lamina.contents.width")),
                    height: Int(coder.decodeInt64(forKey: "lamina.contents.height")),
                    premultipliedRGBA: [UInt8](pixels as Data))
            else { return false }
            storedContents = image
            modelState.contents = ContentsImageRegistry.remember(image)
            keyRecord.noteSet(.contents)
        }
        if has("duration") { storedTiming.duration = coder.decodeDouble(forKey: "duration") }
        if has("repeatCount") { storedTiming.repeatCount = coder.decodeFloat(forKey: "repeatCount") }
        if has("repeatDuration") { storedTiming.repeatDuration = coder.decodeDouble(forKey: "repeatDuration") }
        if has("autoreverses") { storedTiming.autoreverses = coder.decodeBool(forKey: "autoreverses") }
        if let mode = coder.decodeString(forKey: "fillMode") {
            storedTiming.fillMode = CAMediaTimingFillMode(rawValue: mode)
            keyRecord.noteSet("fillMode")
        }
        if has("autoresizingMask") {
            layoutState.autoresizingMask = CAAutoresizingMask(
                rawValue: UInt32(truncatingIfNeeded: coder.decodeInt64(forKey: "autoresizingMask")))
        }
        if has("constraints") {
            guard let list = coder.decodeArray(of: CAConstraint.self, forKey: "constraints") else { return false }
            storedConstraints = list
        }
        let stored = coder.decodeStoredValues(prefix: "lamina.stored")
        kvcStorage.merge(stored) { $1 }
        for key in stored.keys { keyRecord.noteSet(key) }
        decodeFilters(from: coder)
        if has("sublayers") {
            guard let list = coder.decodeArray(of: CALayer.self, forKey: "sublayers") else { return false }
            for layer in list { addSublayer(layer) }
        }
        guard has("animations") else { return true }
        guard
            let animations = coder.decodeArray(
                of: CAAnimation.self, forKey: "animations", also: CAAnimation.archivableClasses),
            let keys = coder.decodeArray(of: NSString.self, forKey: "animationKeys")?.map({ $0 as String }),
            let anonymous = coder.decodeArray(of: NSNumber.self, forKey: "animationsAnonymous"),
            keys.count == animations.count, anonymous.count == animations.count
        else { return false }
        for (i, animation) in animations.enumerated() {
            attachAnimation(animation, forKey: anonymous[i].boolValue ? nil : keys[i])
        }
        return true
    }
}
