import CGBM
import Glibc

/// A GBM device (`gbm_create_device`) over a KMS device's descriptor: the driver's allocator of
/// scan-out buffers. Made once per KMS device (`KMSDevice.gbm()`), which owns it and destroys it
/// before closing its descriptor.
final class KMSGBMDevice {
    let device: OpaquePointer
    /// The GBM backend's name (such as "drm").
    let backend: String

    /// Creates the GBM device of `kms`. Throws when libgbm has no backend for the device's driver.
    init(_ kms: KMSDevice) throws(KMSError) {
        guard let device = gbm_create_device(kms.fileDescriptor) else {
            throw KMSError(call: "gbm_create_device", errno: errno, detail: kms.path)
        }
        self.device = device
        backend = gbm_device_get_backend_name(device).map { String(cString: $0) } ?? "unknown"
    }

    deinit {
        gbm_device_destroy(device)
    }
}
