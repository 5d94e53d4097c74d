import LaminaServer

/// What one `--output` value asks for.
public enum OutputRequest: Equatable, Sendable {
    /// An offscreen display of this mode (`offscreen:WIDTHxHEIGHT@HZ`).
    case offscreen(DisplayMode)
    /// An X11 window of this size, whose frames are asked for at this rate (`window[:WIDTHxHEIGHT[@HZ]]`).
    case window(DisplayMode)
    /// The KMS displays of a DRM device: every connected connector of `device` (`kms:/dev/dri/cardN`),
    /// or of the first card with a connected connector when nil (`kms`); their buffers by the `scanout`
    /// path (`,scanout=dumb`), or the best that works when nil (`,scanout=auto`, the default).
    case kms(device: String?, scanout: KMSScanoutPath? = nil)
}
