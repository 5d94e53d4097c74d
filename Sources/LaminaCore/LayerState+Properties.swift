import Foundation

extension LayerState {
    /// A layer with every property at its default, for reading defaults without building one.
    static let defaults = LayerState()

    /// The value of one property, typed by how it is stored.
    ///
    /// Setting writes the value as given (no clamping: `LayerPropertyDescriptor.clamped(_:)` does
    /// that); a value of another kind than the property's is ignored.
    public subscript(property: LayerPropertyName) -> LayerValue {
        get {
            switch property {
            case .bounds: .rect(bounds)
            case .position: .point(position)
            case .anchorPoint: .point(anchorPoint)
            case .anchorPointZ: .number(anchorPointZ)
            case .zPosition: .number(zPosition)
            case .transform: .transform(transform)
            case .sublayerTransform: .transform(sublayerTransform)
            case .opacity: .float(opacity)
            case .hidden: .bool(isHidden)
            case .backgroundColor: .color(backgroundColor)
            case .cornerRadius: .number(cornerRadius)
            case .maskedCorners: .corners(maskedCorners)
            case .borderWidth: .number(borderWidth)
            case .borderColor: .color(borderColor)
            case .masksToBounds: .bool(masksToBounds)
            case .name: .string(name)
            case .beginTime: .number(beginTime)
            case .timeOffset: .number(timeOffset)
            case .speed: .number(speed)
            }
        }
        set {
            switch (property, newValue) {
            case (.bounds, .rect(let v)): bounds = v
            case (.position, .point(let v)): position = v
            case (.anchorPoint, .point(let v)): anchorPoint = v
            case (.anchorPointZ, .number(let v)): anchorPointZ = v
            case (.zPosition, .number(let v)): zPosition = v
            case (.transform, .transform(let v)): transform = v
            case (.sublayerTransform, .transform(let v)): sublayerTransform = v
            case (.opacity, .float(let v)): opacity = v
            case (.hidden, .bool(let v)): isHidden = v
            case (.backgroundColor, .color(let v)): backgroundColor = v
            case (.cornerRadius, .number(let v)): cornerRadius = v
            case (.maskedCorners, .corners(let v)): maskedCorners = v
            case (.borderWidth, .number(let v)): borderWidth = v
            case (.borderColor, .color(let v)): borderColor = v
            case (.masksToBounds, .bool(let v)): masksToBounds = v
            case (.name, .string(let v)): name = v
            case (.beginTime, .number(let v)): beginTime = v
            case (.timeOffset, .number(let v)): timeOffset = v
            case (.speed, .number(let v)): speed = v
            default: break
            }
        }
    }
}
