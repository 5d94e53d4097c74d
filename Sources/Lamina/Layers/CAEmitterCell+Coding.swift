import Foundation
import LaminaCore
import LaminaGraphics

/// Archiving, copying and the render server's form of an emitter cell.
extension CAEmitterCell {
    /// Cells archive securely.
    public static var supportsSecureCoding: Bool { true }

    /// Writes the cell's values: numbers, colours, rectangles and strings as boxed values, a
    /// `CGImage` in `contents` as its pixels (premultiplied RGBA, top row first), and the nested cells;
    /// a key for which `shouldArchiveValue(forKey:)` is false is left out.
    public func encode(with coder: NSCoder) {
        coder.encodeStoredValues(
            storage.filter { $0.key != "contents" && $0.key != "emitterCells" }, prefix: "lamina.cell",
            archiving: shouldArchiveValue(forKey:))
        if let image = contents as? CGImage, shouldArchiveValue(forKey: "contents") {
            coder.encode(Data(image.premultipliedRGBA) as NSData, forKey: "lamina.contents.rgba")
            coder.encode(Int64(image.width), forKey: "lamina.contents.width")
            coder.encode(Int64(image.height), forKey: "lamina.contents.height")
        }
        if let cells = emitterCells, shouldArchiveValue(forKey: "emitterCells") {
            coder.encode(NSArray(array: cells), forKey: "emitterCells")
        }
    }

    /// Reads the values `encode(with:)` wrote; false when the contents are damaged.
    func decodeCell(from coder: NSCoder) -> Bool {
        storage = coder.decodeStoredValues(prefix: "lamina.cell")
        if coder.containsValue(forKey: "lamina.contents.rgba"),
            let pixels = coder.decodeObject(of: NSData.self, forKey: "lamina.contents.rgba")
        {
            guard
                let image = CGImage(
                    width: Int(coder.decodeInt64(forKey: "lamina.contents.width")),
                    height: Int(coder.decodeInt64(forKey: "lamina.contents.height")),
                    premultipliedRGBA: [UInt8](pixels as Data))
            else { return false }
            storage["contents"] = image
        }
        if let cells = coder.decodeArray(of: CAEmitterCell.self, forKey: "emitterCells") {
            storage["emitterCells"] = cells
        }
        return true
    }

    /// What the render server keeps of the cell and its nested cells (`setEmitterCells`): its
    /// numbers, name, whether it emits, and its contents image's id (registered here, so the commit
    /// that sends it uploads the image).
    var serverState: EmitterCellState {
        var state = EmitterCellState()
        state.name = name
        state.isEnabled = isEnabled
        state.birthRate = birthRate
        state.lifetime = lifetime
        state.lifetimeRange = lifetimeRange
        state.emissionLatitude = Double(emissionLatitude)
        state.emissionLongitude = Double(emissionLongitude)
        state.emissionRange = Double(emissionRange)
        state.velocity = Double(velocity)
        state.velocityRange = Double(velocityRange)
        state.xAcceleration = Double(xAcceleration)
        state.yAcceleration = Double(yAcceleration)
        state.zAcceleration = Double(zAcceleration)
        state.scale = Double(scale)
        state.scaleRange = Double(scaleRange)
        state.scaleSpeed = Double(scaleSpeed)
        state.spin = Double(spin)
        state.spinRange = Double(spinRange)
        state.color = color.map { RGBAColor($0) } ?? RGBAColor(red: 1, green: 1, blue: 1, alpha: 1)
        state.colorRange = SIMD4(redRange, greenRange, blueRange, alphaRange)
        state.colorSpeed = SIMD4(redSpeed, greenSpeed, blueSpeed, alphaSpeed)
        state.contentsRect = contentsRect
        state.contentsScale = Double(contentsScale)
        state.beginTime = beginTime
        // A duration that is not positive emits without end, as 0 does (the server refuses negatives).
        state.duration = duration > 0 ? duration : 0
        state.contents = (contents as? CGImage).map(ContentsImageRegistry.remember) ?? 0
        state.cells = (emitterCells ?? []).map(\.serverState)
        return state
    }
}
