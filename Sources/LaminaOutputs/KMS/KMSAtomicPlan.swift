/// The property assignments and flags of one atomic commit, as data: what the KMS output asks of the
/// device, by property name, before the names are resolved to the device's property ids.
///
/// The output commits every plan twice: first with `DRM_MODE_ATOMIC_TEST_ONLY` added to its flags
/// (the device checks it and changes nothing), then for real.
public struct KMSAtomicPlan: Equatable, Sendable {
    /// One property of one KMS object set to a value.
    public struct Assignment: Equatable, Sendable {
        /// The object's id (a connector, CRTC or plane).
        public var object: UInt32
        /// The property's name, such as `FB_ID`.
        public var property: String
        /// The value.
        public var value: UInt64

        /// Sets `property` of `object` to `value`.
        public init(object: UInt32, property: String, value: UInt64) {
            self.object = object
            self.property = property
            self.value = value
        }
    }

    /// `DRM_MODE_PAGE_FLIP_EVENT`: send an event when the commit takes effect.
    public static let pageFlipEvent: UInt32 = 0x01
    /// `DRM_MODE_ATOMIC_TEST_ONLY`: check the commit, change nothing.
    public static let testOnly: UInt32 = 0x0100
    /// `DRM_MODE_ATOMIC_NONBLOCK`: return before the commit takes effect.
    public static let nonBlocking: UInt32 = 0x0200
    /// `DRM_MODE_ATOMIC_ALLOW_MODESET`: the commit may change the mode.
    public static let allowModeset: UInt32 = 0x0400

    /// The blob given to the plane's `FB_DAMAGE_CLIPS`, if any.
    public var damageClips: UInt32? {
        assignments.first { $0.property == "FB_DAMAGE_CLIPS" }.map { UInt32($0.value) }
    }

    /// The assignments, in the order they are added to the request.
    public var assignments: [Assignment]
    /// The commit's flags (without `testOnly`).
    public var flags: UInt32

    /// A plan of `assignments` committed with `flags`.
    public init(assignments: [Assignment], flags: UInt32) {
        self.assignments = assignments
        self.flags = flags
    }

    /// The first commit: the connector on the CRTC, the CRTC active in the mode `modeBlob`, and the
    /// primary plane showing all of `framebuffer` (`width` × `height`) over the whole CRTC. Blocking,
    /// allowed to change the mode, with a page-flip event.
    public static func modeset(
        connector: UInt32, crtc: UInt32, plane: UInt32, modeBlob: UInt32, framebuffer: UInt32, width: Int, height: Int
    ) -> KMSAtomicPlan {
        var assignments = [
            Assignment(object: connector, property: "CRTC_ID", value: UInt64(crtc)),
            Assignment(object: crtc, property: "MODE_ID", value: UInt64(modeBlob)),
            Assignment(object: crtc, property: "ACTIVE", value: 1),
        ]
        assignments += planeAssignments(
            plane: plane, crtc: crtc, framebuffer: framebuffer, width: width, height: height)
        return KMSAtomicPlan(assignments: assignments, flags: allowModeset | pageFlipEvent)
    }

    /// A page flip: the primary plane shows `framebuffer` from the next refresh. Non-blocking, with a
    /// page-flip event when it takes effect. With `damageClips` (a blob of rectangles), the plane's
    /// `FB_DAMAGE_CLIPS` says which pixels differ from the framebuffer shown before, so a driver that
    /// transfers or refreshes by region (virtio-gpu, USB displays, panel self-refresh) does only that.
    public static func flip(plane: UInt32, framebuffer: UInt32, damageClips: UInt32? = nil) -> KMSAtomicPlan {
        var assignments = [Assignment(object: plane, property: "FB_ID", value: UInt64(framebuffer))]
        if let damageClips {
            assignments.append(Assignment(object: plane, property: "FB_DAMAGE_CLIPS", value: UInt64(damageClips)))
        }
        return KMSAtomicPlan(assignments: assignments, flags: pageFlipEvent | nonBlocking)
    }

    /// Turns the display off: the plane shows nothing, the CRTC is inactive with no mode and the
    /// connector is on no CRTC. Blocking, allowed to change the mode.
    public static func disable(connector: UInt32, crtc: UInt32, plane: UInt32) -> KMSAtomicPlan {
        KMSAtomicPlan(
            assignments: [
                Assignment(object: plane, property: "FB_ID", value: 0),
                Assignment(object: plane, property: "CRTC_ID", value: 0),
                Assignment(object: connector, property: "CRTC_ID", value: 0),
                Assignment(object: crtc, property: "ACTIVE", value: 0),
                Assignment(object: crtc, property: "MODE_ID", value: 0),
            ],
            flags: allowModeset)
    }

    /// The primary plane on `crtc` showing all of `framebuffer` over the whole CRTC: source
    /// rectangles in 16.16 fixed point, destination in pixels.
    static func planeAssignments(plane: UInt32, crtc: UInt32, framebuffer: UInt32, width: Int, height: Int)
        -> [Assignment]
    {
        [
            Assignment(object: plane, property: "FB_ID", value: UInt64(framebuffer)),
            Assignment(object: plane, property: "CRTC_ID", value: UInt64(crtc)),
            Assignment(object: plane, property: "SRC_X", value: 0),
            Assignment(object: plane, property: "SRC_Y", value: 0),
            Assignment(object: plane, property: "SRC_W", value: UInt64(width) << 16),
            Assignment(object: plane, property: "SRC_H", value: UInt64(height) << 16),
            Assignment(object: plane, property: "CRTC_X", value: 0),
            Assignment(object: plane, property: "CRTC_Y", value: 0),
            Assignment(object: plane, property: "CRTC_W", value: UInt64(width)),
            Assignment(object: plane, property: "CRTC_H", value: UInt64(height)),
        ]
    }
}
