/// A CRTC's state before the KMS output took it (`drmModeGetCrtc`), and how to give it back on exit.
public struct KMSSavedCrtc: Equatable, Sendable {
    /// How the output puts the CRTC back.
    public enum Restore: Equatable, Sendable {
        /// Show the saved framebuffer at the saved offset in the saved mode again (`drmModeSetCrtc`,
        /// with the output's connector): what a console or the previous master showed.
        case reapply(crtc: UInt32, framebuffer: UInt32, x: UInt32, y: UInt32, connector: UInt32)
        /// The CRTC was off: turn it off again with this atomic plan.
        case disable(KMSAtomicPlan)
    }

    /// The CRTC's id.
    public var crtc: UInt32
    /// The framebuffer it showed (0: none).
    public var framebuffer: UInt32
    /// The offset of the shown area in the framebuffer.
    public var x: UInt32
    /// The offset of the shown area in the framebuffer.
    public var y: UInt32
    /// Whether it had a mode (the mode itself is kept by the output, as libdrm's struct).
    public var modeValid: Bool

    /// A saved state.
    public init(crtc: UInt32, framebuffer: UInt32, x: UInt32, y: UInt32, modeValid: Bool) {
        self.crtc = crtc
        self.framebuffer = framebuffer
        self.x = x
        self.y = y
        self.modeValid = modeValid
    }

    /// How to restore this state, given the connector and primary plane the output drove: the saved
    /// framebuffer and mode again when the CRTC showed one, else the display turned off.
    public func restore(connector: UInt32, plane: UInt32) -> Restore {
        if modeValid && framebuffer != 0 {
            return .reapply(crtc: crtc, framebuffer: framebuffer, x: x, y: y, connector: connector)
        }
        return .disable(.disable(connector: connector, crtc: crtc, plane: plane))
    }
}
