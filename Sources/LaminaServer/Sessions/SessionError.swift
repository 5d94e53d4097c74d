import Foundation
import LaminaCore
import LaminaProtocol

/// A fatal problem with what a client sent: the error code and a text that names the problem.
struct SessionError: Error {
    var code: ServerErrorCode
    var message: String
    /// Whether this is the refusal of a well-formed surface or device-image registration whose values
    /// the server or its device cannot take: answered by `surfaceRefused`, not by disconnecting.
    var isRefusal = false

    init(_ code: ServerErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The refusal of a well-formed registration (`isRefusal`), with `code` and a text naming why.
    static func refusal(_ code: ServerErrorCode, _ message: String) -> SessionError {
        var error = SessionError(code, message)
        error.isRefusal = true
        return error
    }

    init(_ error: WireError) {
        switch error {
        case .unknownMessage: code = .unknownMessage
        case .unknownOperation: code = .unknownOperation
        case .unknownProperty: code = .unknownProperty
        case .unknownLayerClass: code = .unknownLayerClass
        case .countTooLarge: code = .limitExceeded
        default: code = .malformedMessage
        }
        message = error.description
    }
}
