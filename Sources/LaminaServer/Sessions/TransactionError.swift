import LaminaCore
import LaminaProtocol

/// Why a transaction was refused. The text names the id or value at fault.
public enum TransactionError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownLayer(LayerID)
    case duplicateLayer(LayerID)
    case cycle(String)
    case invalidValue(String)
    case limitExceeded(String)
    case badDisplay(UInt32)
    /// An image id that the client has not uploaded, or has released.
    case unknownImage(UInt64)
    /// A set-property operation or an animation of layer `layer` names property `key` of class
    /// `owner`, but the layer is of class `actual`.
    case wrongLayerClass(LayerID, key: String, owner: LayerClass, actual: LayerClass)
    /// A `surfaceChanged` names an id that is not a registered (and unreleased) shared surface.
    case unknownSurface(UInt64)

    /// The error code reported to the client.
    public var code: ServerErrorCode {
        switch self {
        case .unknownLayer: .unknownLayer
        case .duplicateLayer: .duplicateLayer
        case .cycle: .cycle
        case .invalidValue: .invalidValue
        case .limitExceeded: .limitExceeded
        case .badDisplay: .badDisplay
        case .unknownImage: .unknownImage
        case .wrongLayerClass: .wrongLayerClass
        case .unknownSurface: .unknownSurface
        }
    }

    /// A sentence naming the id or value at fault.
    public var description: String {
        switch self {
        case .unknownLayer(let id):
            "unknown layer id \(id) (ids are per connection: another client's id is unknown here)"
        case .duplicateLayer(let id): "layer id \(id) already exists"
        case .cycle(let text): "cycle in the layer tree: \(text)"
        case .invalidValue(let text): "invalid value: \(text)"
        case .limitExceeded(let text): "limit exceeded: \(text)"
        case .badDisplay(let d): "display \(d) does not exist"
        case .unknownImage(let id): "unknown image id \(id) (not uploaded, or released)"
        case .wrongLayerClass(let id, let key, let owner, let actual):
            "layer \(id) is a \(actual.className), which has no property '\(key)' (a \(owner.className) property)"
        case .unknownSurface(let id): "unknown surface id \(id) (not registered, or released)"
        }
    }
}
