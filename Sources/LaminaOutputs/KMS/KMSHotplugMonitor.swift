import CUdev
import Glibc

/// A udev monitor of the `drm` subsystem: tells which DRM devices had a hot-plug event (a connector
/// connected or disconnected).
///
/// Listens to udev's events when udev runs (`/run/udev/control` exists), else to the kernel's own
/// uevents (a system without udev, such as a small initramfs). Its fd is non-blocking; `receive`
/// reads what is waiting.
final class KMSHotplugMonitor {
    let udev: OpaquePointer
    let monitor: OpaquePointer
    /// The source listened to: `udev` or `kernel`.
    let source: String

    /// A monitor of the `drm` subsystem, receiving.
    init() throws(KMSError) {
        guard let udev = udev_new() else { throw KMSError(call: "udev_new", errno: errno) }
        source = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel"
        guard let monitor = udev_monitor_new_from_netlink(udev, source) else {
            udev_unref(udev)
            throw KMSError(call: "udev_monitor_new_from_netlink", errno: errno, detail: source)
        }
        self.udev = udev
        self.monitor = monitor
        let filtered = udev_monitor_filter_add_match_subsystem_devtype(monitor, "drm", nil)
        guard filtered >= 0 else {
            throw KMSError(call: "udev_monitor_filter_add_match_subsystem_devtype", errno: -filtered)
        }
        let enabled = udev_monitor_enable_receiving(monitor)
        guard enabled >= 0 else { throw KMSError(call: "udev_monitor_enable_receiving", errno: -enabled) }
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// The monitor's fd: readable when events wait.
    var fileDescriptor: Int32 { udev_monitor_get_fd(monitor) }

    /// Reads every waiting event (never blocks) and returns the device nodes (such as
    /// `/dev/dri/card0`) that changed (a hot-plug event among them).
    func receive() -> Set<String> {
        var nodes: Set<String> = []
        while let device = udev_monitor_receive_device(monitor) {
            // A hot-plug is a `change` of the card with HOTPLUG=1; any `change` of a card is taken (the
            // connectors are only read again), which also covers one synthesized through sysfs.
            let action = udev_device_get_action(device).map { String(cString: $0) }
            if action == "change", let node = udev_device_get_devnode(device) {
                nodes.insert(String(cString: node))
            }
            udev_device_unref(device)
        }
        return nodes
    }
}
