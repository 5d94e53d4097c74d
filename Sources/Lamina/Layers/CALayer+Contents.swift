import Foundation

extension CALayer {
    /// What `contents` returns: the object given, or, on a presentation layer, the image shown at
    /// its time (an object that is not an image, when the model layer holds one and no image shows).
    var contentsObject: Any? {
        let id = modelState.contents
        if let image = storedContents as? CGImage, image.contentsID == id { return image }
        if let surface = storedContents as? IOSurface, surface.contentsID == id { return surface }
        if let drawable = storedContents as? VulkanDrawableImage, drawable.contentsID == id { return drawable }
        if id == 0 {
            return storedContents is CGImage || storedContents is IOSurface || storedContents is VulkanDrawableImage
                ? nil : storedContents
        }
        return ContentsImageRegistry.image(id) ?? IOSurfaceRegistry.surface(id)
    }

    /// Stores `value` as the layer's contents; a `CGImage` or an `IOSurface` becomes the image id
    /// sent to the server (through the property's action, so a change animates implicitly), anything
    /// else id 0. The surface the layer already shows, assigned again, is a new frame of it (as on
    /// Apple platforms): the next commit says so (`surfaceChanged`).
    func setContents(_ value: Any?) {
        // The old image lives through the action, which boxes it as an implicit animation's fromValue.
        let old = storedContents
        let surface = value as? IOSurface
        if let surface, surface.contentsID == modelState.contents { surface.noteChanged() }
        let drawable = value as? VulkanDrawableImage
        if let drawable, drawable.contentsID == modelState.contents { drawable.noteChanged() }
        let id =
            (value as? CGImage).map(ContentsImageRegistry.remember) ?? surface.map(IOSurfaceRegistry.remember)
            ?? drawable.map(VulkanDrawableImageRegistry.remember) ?? 0
        update(.contents, \.contents, id) {
            self.storedContents = value
            // Contents the app sets are shown as they are; a text layer's drawing says again when
            // they are coverage to tint (`CATextLayer.setTintsContents(_:)`).
            if self.modelState.text.tintsContents { self.modelState.text.tintsContents = false }
        }
        withExtendedLifetime(old) {}
    }
}
