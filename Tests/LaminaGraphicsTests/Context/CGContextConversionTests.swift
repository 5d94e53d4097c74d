import Foundation
import Testing

@testable import LaminaGraphics

/// Conversions between user and device space and path hit-testing (Apple's
/// `convertToDeviceSpace`, `pathContains(_:mode:)`).
@Suite("CGContext conversions")
struct CGContextConversionTests {
    /// In the layer context at scale 2 with bounds 10 × 20, user (1, 1) is device (2, 38): y up in device space.
    @Test func userAndDeviceSpace() throws {
        let context = try #require(
            CGContext.makeLayerContext(bounds: CGRect(x: 0, y: 0, width: 10, height: 20), contentsScale: 2))
        #expect(context.convertToDeviceSpace(CGPoint(x: 1, y: 1)) == CGPoint(x: 2, y: 38))
        #expect(context.convertToUserSpace(CGPoint(x: 2, y: 38)) == CGPoint(x: 1, y: 1))
        #expect(
            context.convertToDeviceSpace(CGRect(x: 0, y: 0, width: 5, height: 5))
                == CGRect(x: 0, y: 30, width: 10, height: 10))
        #expect(context.userSpaceToDeviceSpaceTransform == context.ctm)
    }

    /// A point inside the inner square of two nested squares is in the winding fill but not the
    /// even-odd one; the stroke covers half the line width either side of an edge.
    @Test func pathContains() {
        let context = CGContext.rgba(width: 10, height: 10)
        context.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        context.addRect(CGRect(x: 3, y: 3, width: 4, height: 4))
        let centre = CGPoint(x: 5, y: 5)
        #expect(context.pathContains(centre, mode: .fill))
        #expect(!context.pathContains(centre, mode: .eoFill))
        #expect(!context.pathContains(centre, mode: .stroke))
        context.setLineWidth(2)
        #expect(context.pathContains(CGPoint(x: 3.9, y: 5), mode: .stroke))
        #expect(!context.pathContains(CGPoint(x: 4.1, y: 5), mode: .stroke))
        #expect(!context.isPathEmpty)
    }
}
