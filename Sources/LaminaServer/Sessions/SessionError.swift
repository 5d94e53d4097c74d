import Foundation
import LaminaCore
import LaminaProtocol

/// A fatal problem with what a client sent: the error code and a text that names the problem.
struct SessionError: Error {
    var code: ServerErrorCode
    var message: String

    init(_ code: ServerErrorCode, _ message: String) {
        self.code = code
        self.message = message
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
