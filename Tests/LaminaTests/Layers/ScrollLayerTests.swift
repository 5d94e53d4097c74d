import Foundation
import Lamina
import Testing

/// `CAScrollLayer` and the scrolling methods every layer has, as Apple documents them: scrolling
/// sets the scroll layer's `bounds.origin` (the `CAScrollLayer` reference: "scrollToPoint: Changes
/// the origin of the receiver to the specified point"; `scrollMode` limits the directions; `CALayer`'s
/// `scrollPoint:` and `scrollRectToVisible:` act on "the closest ancestor CAScrollLayer", and
/// `visibleRect` is "the visible region of the receiver, in its own coordinate space").
@Suite struct ScrollLayerTests {
    /// A 100×80 scroll layer holding a 400×300 document layer at its origin, and a 20×20 item at
    /// (250, 200) in the document.
    static func scene() -> (scroller: CAScrollLayer, document: CALayer, item: CALayer) {
        let scroller = CAScrollLayer()
        scroller.frame = CGRect(x: 10, y: 10, width: 100, height: 80)
        let document = CALayer()
        document.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        let item = CALayer()
        item.frame = CGRect(x: 250, y: 200, width: 20, height: 20)
        document.addSublayer(item)
        scroller.addSublayer(document)
        return (scroller, document, item)
    }

    /// Apple's `kCAScrollBoth` is a new scroll layer's mode; the names are Core Animation's.
    @Test func defaultsAndNames() {
        #expect(CAScrollLayer().scrollMode == .both)
        #expect(CAScrollLayer.defaultValue(forKey: "scrollMode") as? String == "both")
        #expect(CAScrollLayerScrollMode.none.rawValue == "none")
        #expect(CAScrollLayerScrollMode.vertically.rawValue == "vertically")
        #expect(CAScrollLayerScrollMode.horizontally.rawValue == "horizontally")
        let layer = CAScrollLayer()
        layer.setValue("horizontally", forKey: "scrollMode")
        #expect(layer.scrollMode == .horizontally)
        #expect(layer.value(forKey: "scrollMode") as? String == "horizontally")
    }

    /// `scroll(to:)` a point sets the bounds' origin, in the directions the mode allows.
    @Test(arguments: [
        (CAScrollLayerScrollMode.both, CGPoint(x: 30, y: 40)),
        (.horizontally, CGPoint(x: 30, y: 0)),
        (.vertically, CGPoint(x: 0, y: 40)),
        (.none, CGPoint(x: 0, y: 0)),
    ])
    func scrollToPointFollowsTheMode(mode: CAScrollLayerScrollMode, origin: CGPoint) {
        let (scroller, _, _) = Self.scene()
        scroller.scrollMode = mode
        scroller.scroll(to: CGPoint(x: 30, y: 40))
        #expect(scroller.bounds.origin == origin)
        #expect(scroller.bounds.size == CGSize(width: 100, height: 80), "the size stays")
        #expect(scroller.position == CGPoint(x: 60, y: 50), "the layer itself does not move")
    }

    /// `scroll(to:)` a rectangle scrolls as little as shows it: to the far edge when it lies past
    /// the bounds' end, to the near edge when before their start, not at all when visible.
    @Test func scrollToRectMovesAsLittleAsShowsIt() {
        let (scroller, _, _) = Self.scene()
        scroller.scroll(to: CGRect(x: 250, y: 200, width: 20, height: 20))
        #expect(scroller.bounds.origin == CGPoint(x: 170, y: 140), "item's max edges at the bounds' max edges")
        scroller.scroll(to: CGRect(x: 180, y: 150, width: 10, height: 10))
        #expect(scroller.bounds.origin == CGPoint(x: 170, y: 140), "already visible: no scroll")
        scroller.scroll(to: CGRect(x: 5, y: 6, width: 10, height: 10))
        #expect(scroller.bounds.origin == CGPoint(x: 5, y: 6), "before the start: the near edges")
    }

    /// A sublayer's `scroll(_:)` and `scrollRectToVisible(_:)` work in its own coordinates through
    /// the nearest scroll layer; `visibleRect` is the part of its bounds that scroll layer shows.
    @Test func sublayersScrollTheirScrollLayer() {
        let (scroller, document, item) = Self.scene()
        #expect(item.visibleRect == .zero, "the item lies outside the 100×80 view")
        #expect(document.visibleRect == CGRect(x: 0, y: 0, width: 100, height: 80))
        item.scrollRectToVisible(item.bounds)
        #expect(scroller.bounds.origin == CGPoint(x: 170, y: 140))
        #expect(item.visibleRect == item.bounds)
        #expect(document.visibleRect == CGRect(x: 170, y: 140, width: 100, height: 80))
        item.scroll(CGPoint(x: 10, y: 10))
        #expect(scroller.bounds.origin == CGPoint(x: 260, y: 210), "the item's (10, 10) at the origin")
        #expect(item.visibleRect == CGRect(x: 10, y: 10, width: 10, height: 10))
        let loose = CALayer()
        loose.bounds = CGRect(x: 0, y: 0, width: 30, height: 30)
        loose.scroll(CGPoint(x: 5, y: 5))
        #expect(loose.bounds.origin == .zero, "no scroll layer above: nothing scrolls")
        #expect(loose.visibleRect == loose.bounds)
    }

    /// The mode is archived with the layer, and a copy for presentation keeps it.
    @Test func scrollModeIsArchived() throws {
        let layer = CAScrollLayer()
        layer.scrollMode = .vertically
        let data = try NSKeyedArchiver.archivedData(withRootObject: layer, requiringSecureCoding: true)
        let copy = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClass: CAScrollLayer.self, from: data))
        #expect(copy.scrollMode == .vertically)
    }
}
