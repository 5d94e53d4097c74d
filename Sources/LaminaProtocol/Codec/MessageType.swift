import Foundation
import LaminaCore

/// The message types and their wire numbers.
public enum MessageType: UInt16, Sendable {
    case hello = 1, transactionPart = 2, commit = 3, capture = 4, ping = 5, describeTree = 6, frameEvents = 7
    case uploadImage = 8, releaseImage = 9, stats = 10, setLevel = 11, requestExportToken = 12
    case captureLayer = 13, frameRecords = 14, registerSurface = 15, releaseSurface = 16
    case requestSurfaceCapabilities = 17, registerDeviceImage = 18, surfaceFeedback = 19
    case welcome = 101, commitApplied = 102, commitPresented = 103, error = 104, captureResult = 105
    case pong = 106, treeDescription = 107, animationEvents = 108, frame = 109, statsReply = 110
    case displaysChanged = 111, exportToken = 112, warning = 113, frameRecordsReply = 114
    case tiledLayerView = 120
    case surfaceCapabilities = 121, surfaceDiscarded = 122, surfacePresented = 123, surfaceReleased = 124
    case surfaceRefused = 125
}
