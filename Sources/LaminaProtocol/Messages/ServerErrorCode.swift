import Foundation
import LaminaCore

/// The server's error codes; the text that travels with one names the offending message, id or value.
public enum ServerErrorCode: UInt16, Sendable {
    case protocolViolation = 1, unsupportedVersion, malformedMessage, unknownMessage, unknownOperation
    case unknownProperty, unknownLayer, duplicateLayer, cycle, invalidValue, oversizedMessage, limitExceeded
    case badDisplay, badFileDescriptor, internalError, unknownImage, duplicateImage, tokenMismatch
    /// Only in a `warning`: the context id a `hello` asked to keep cannot be given back (this server
    /// has given it out), so the client has a new one.
    case contextIdUnavailable
    /// A `createLayer` names a layer class the server does not know.
    case unknownLayerClass
    /// A set-property operation or an animation names a property of another layer class than the
    /// layer's (a `CAShapeLayer` property on a `CALayer`).
    case wrongLayerClass
    /// A `releaseSurface` or `surfaceChanged` names an id that is not a registered surface.
    case unknownSurface = 22
    /// A `registerSurface` of a bi-planar YCbCr format whose planes break the format's layout: an
    /// offset or stride that is not a whole number of the plane's samples, or planes that overlap.
    case invalidSurfaceLayout = 26
    /// A `registerDeviceImage` names a device or driver UUID other than the server's: its memory
    /// cannot be imported here.
    case deviceMismatch = 23
    /// A `registerDeviceImage` the server could not import: a format it does not accept, a create
    /// info or allocation size its device refuses, or a descriptor that is not exported memory.
    case deviceImageRefused = 24
}
