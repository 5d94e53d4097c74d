import Foundation

extension CALayer {
    /// Tells the layer that the pixels of its contents changed in place: for an `IOSurface`, the next
    /// commit redraws every layer showing it, in the frame of that commit (`surfaceChanged`). Apple's
    /// private `-[CALayer setContentsChanged]`, the spelling WebKit and Chromium declare; assigning
    /// the same surface to `contents` again does the same. Contents of any other kind are unchanged.
    public func setContentsChanged() {
        guard let surface = storedContents as? IOSurface, surface.contentsID == modelState.contents else { return }
        surface.noteChanged()
        changed()
    }
}
