import Foundation

// Layout: marking layers (`setNeedsLayout`), the default `layoutSublayers()` (autoresizing, then the
// delegate or the layout manager), and the top-down pass that a commit runs before it encodes the tree.
//
// Marks propagate upwards: a marked layer sets `layoutState.sublayerNeedsLayout` on each ancestor, so a pass visits
// only the branches that lead to marked layers. A pass lays out a layer before its sublayers, so
// sublayers are laid out after their frames are set.

extension CALayerDelegate {
    /// Does nothing; the default for delegates that do not implement it, which lets the layer's
    /// `layoutManager` lay the sublayers out instead (as Apple's `layoutSublayers()` does when the
    /// delegate does not respond to `layoutSublayersOfLayer:`).
    public func layoutSublayers(of layer: CALayer) {
        layer.layoutState.delegateFellThrough = true
    }
}

extension CALayer {
    /// The most passes one layout run makes while layout code keeps marking layers it already laid
    /// out; what is still marked after them waits for the next commit.
    static let maximumLayoutPasses = 4

    // MARK: Marking

    /// Marks the layer for layout, tells the layout manager, and opens a transaction so that a commit
    /// lays it out: the implementation behind `setNeedsLayout()`. A layer already marked is left as
    /// it is: its layout manager hears `invalidateLayout(of:)` once per mark, as on Apple platforms
    /// (GNUstep's QuartzCore tests run on macOS, issue 24).
    func markNeedsLayout() {
        guard presentationSource == nil, !layoutState.needsLayout else { return }
        layoutState.needsLayout = true
        markAncestorsForLayout()
        layoutManager?.invalidateLayout(of: self)
        CATransaction.treeDidChange()
    }

    /// Sets `layoutState.sublayerNeedsLayout` on every ancestor up to the first that has it already.
    func markAncestorsForLayout() {
        var current = superlayer
        while let layer = current, !layer.layoutState.sublayerNeedsLayout {
            layer.layoutState.sublayerNeedsLayout = true
            current = layer.superlayer
        }
    }

    /// Called after `sublayer` joined this layer: marks this layer, and leads the pass to the marks
    /// the sublayer's own subtree carries.
    func sublayerDidJoin(_ sublayer: CALayer) {
        if sublayer.layoutState.needsLayout || sublayer.layoutState.sublayerNeedsLayout {
            layoutState.sublayerNeedsLayout = true
            markAncestorsForLayout()
        }
        setNeedsLayout()
    }

    /// Called by the property setters after `bounds` changed: a new size resizes the sublayers at once
    /// by their `autoresizingMask` (`resizeSublayers(withOldSize:)`, as Apple's `setBounds:` does),
    /// marks the layer, and marks its superlayer when that has a layout manager (whose layout may
    /// depend on the sublayers' sizes) and is not the one laying it out now.
    func boundsDidChange(from oldSize: CGSize) {
        guard modelState.bounds.size != oldSize, presentationSource == nil else { return }
        if !storedSublayers.isEmpty { resizeSublayers(withOldSize: oldSize) }
        setNeedsLayout()
        if let parent = superlayer, parent.layoutManager != nil, !parent.layoutState.isLayingOut {
            parent.setNeedsLayout()
        }
    }

    // MARK: Running layout

    /// Lays out, top-down, every layer of this subtree that needs it: the pass a commit runs over each
    /// context's tree before encoding it, and the work of `layoutIfNeeded()`.
    ///
    /// A layer is laid out before its sublayers are visited, so they are laid out after their frames
    /// are set. When layout marks layers the pass has already left, the pass runs again, at most
    /// `maximumLayoutPasses` times in all.
    func layoutTreeIfNeeded() {
        var passes = 0
        while layoutState.needsLayout || layoutState.sublayerNeedsLayout, passes < Self.maximumLayoutPasses {
            layoutSubtreeOnce()
            passes += 1
        }
    }

    private func layoutSubtreeOnce() {
        if layoutState.needsLayout { runLayout() }
        guard layoutState.sublayerNeedsLayout else { return }
        layoutState.sublayerNeedsLayout = false
        for sublayer in storedSublayers
        where sublayer.layoutState.needsLayout || sublayer.layoutState.sublayerNeedsLayout {
            sublayer.layoutSubtreeOnce()
        }
    }

    /// Clears the mark and calls `layoutSublayers()`.
    func runLayout() {
        layoutState.needsLayout = false
        let wasLayingOut = layoutState.isLayingOut
        layoutState.isLayingOut = true
        layoutSublayers()
        layoutState.isLayingOut = wasLayingOut
    }

    /// Lays out the topmost marked ancestor's subtree (the layer's own, when its superlayer is not
    /// marked): the implementation behind `layoutIfNeeded()`.
    func layoutFromTopmostMarkedAncestor() {
        var top = self
        while let parent = top.superlayer, parent.layoutState.needsLayout { top = parent }
        top.layoutTreeIfNeeded()
    }

    /// Lets the delegate lay the sublayers out, or the layout manager when the delegate does not
    /// implement `layoutSublayers(of:)`: the implementation behind `layoutSublayers()`. (Autoresizing
    /// is not part of it: it happens when the bounds size is set, `boundsDidChange(from:)`.)
    func layoutSublayersByDefault() {
        if let delegate {
            layoutState.delegateFellThrough = false
            delegate.layoutSublayers(of: self)
            guard layoutState.delegateFellThrough else { return }
        }
        layoutManager?.layoutSublayers(of: self)
    }

    // MARK: Autoresizing

    /// Moves and resizes the layer by its `autoresizingMask` for the change of its superlayer's size
    /// from `oldSize` to its current bounds size: the implementation behind
    /// `resize(withOldSuperlayerSize:)`.
    ///
    /// Each axis whose mask has a bit is worked out on its own (`AutoresizingAxis`), as Apple's
    /// QuartzCore does (values observed by GNUstep's QuartzCore tests run on macOS, issue 24): the
    /// size takes a third of the change when a margin of the axis is flexible too, and all of it
    /// alone; the flexible margins share the rest equally. The new origin is rounded down to a whole
    /// point and the size takes up the slack to the trailing margin, rounded up. A size that comes
    /// out negative turns the frame over (it is standardized), as Apple's `setFrame:` does.
    func autoresize(withOldSuperlayerSize oldSize: CGSize) {
        let mask = autoresizingMask
        guard !mask.isEmpty, let parent = superlayer else { return }
        let newSize = parent.bounds.size
        var frame = self.frame
        if let x = AutoresizingAxis(mask: mask.rawValue, shift: 0) {
            (frame.origin.x, frame.size.width) = x.resize(
                origin: frame.minX, size: frame.width, from: oldSize.width, to: newSize.width)
        }
        if let y = AutoresizingAxis(mask: mask.rawValue, shift: 3) {
            (frame.origin.y, frame.size.height) = y.resize(
                origin: frame.minY, size: frame.height, from: oldSize.height, to: newSize.height)
        }
        frame = frame.standardized
        if frame != self.frame { self.frame = frame }
    }

    // MARK: Preferred size

    /// The layout manager's preferred size, else the bounds size, mapped into the superlayer's space
    /// by the plane part of `transform` (the size of the transformed rectangle's bounding box): the
    /// implementation behind `preferredFrameSize()`.
    func preferredFrameSizeByDefault() -> CGSize {
        let size = layoutManager?.preferredSize(of: self) ?? modelState.bounds.size
        let t = modelState.transform
        guard !CATransform3DIsIdentity(t) else { return size }
        let m = CATransform3DGetAffineTransform(t)
        return CGSize(
            width: abs(m.a) * size.width + abs(m.c) * size.height,
            height: abs(m.b) * size.width + abs(m.d) * size.height)
    }

    /// Sets the layout manager and marks the layer for layout.
    func setLayoutManager(_ manager: (any CALayoutManager)?) {
        storedLayoutManager = manager
        setNeedsLayout()
    }

    /// Sets the constraints and marks the superlayer, which applies them, for layout.
    func setConstraints(_ list: [CAConstraint]?) {
        settingKey("constraints") { storedConstraints = list }
        superlayer?.setNeedsLayout()
    }
}
