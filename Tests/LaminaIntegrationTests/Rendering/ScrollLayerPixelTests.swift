import Foundation
import Lamina
import LaminaTesting
import Testing

/// A `CAScrollLayer` on screen: scrolling sets its `bounds.origin`, so the server draws its
/// sublayers moved the other way and, with `masksToBounds`, only what the view shows; without
/// disabled actions the scroll animates as any bounds change does (Apple: scrolling "changes the
/// origin of the receiver", and `bounds` is animatable with the default 0.25 s action).
@Suite final class ScrollLayerPixelTests: AnimationSuite {
    let server: TestServer

    init() throws {
        server = try TestServer(width: 200, height: 100)
    }

    deinit {
        server.stop()
    }

    @Test func scrollingShowsWhatTheOriginPointsAt() throws {
        let context = try server.connect()
        let scroller = CAScrollLayer()
        scroller.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        scroller.masksToBounds = true
        let document = CALayer()
        document.frame = CGRect(x: 0, y: 0, width: 600, height: 100)
        document.backgroundColor = Self.white
        let item = CALayer()
        item.frame = CGRect(x: 250, y: 50, width: 20, height: 20)
        item.backgroundColor = Self.blue
        document.addSublayer(item)
        scroller.addSublayer(document)
        try makeScene(context, [scroller])
        let before = try context.capture()
        #expect(rgb(before, 190, 60) == (255, 255, 255), "the item is out of view, right of x 200")

        CATransaction.begin()
        CATransaction.setDisableActions(true)
        item.scrollRectToVisible(item.bounds)
        CATransaction.commit()
        try context.synchronize()
        // The item's right edge at the view's: origin (70, 0), the item drawn at x 180..<200.
        #expect(scroller.bounds.origin == CGPoint(x: 70, y: 0))
        let after = try context.capture()
        #expect(rgb(after, 190, 60) == (0, 0, 255))
        #expect(rgb(after, 178, 60) == (255, 255, 255))
        #expect(rgb(after, 181, 51) == (0, 0, 255))

        // An animated scroll back to 0: at its end the item is out of view again; before, on its way.
        scroller.scroll(to: CGPoint.zero)
        try context.synchronize()
        let scroll = try #require(scroller.animation(forKey: "bounds"), "bounds animates implicitly")
        #expect(rgb(try context.capture(at: scroll.beginTime + 0.3), 190, 60) == (255, 255, 255))
        #expect(scroll.duration == 0.25)
        let midway = try #require(scroller.presentation(at: scroll.beginTime + 0.125)).bounds.origin
        #expect(midway.x > 0 && midway.x < 70 && midway.y == 0, "on its way back: \(midway)")
    }
}
