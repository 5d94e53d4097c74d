// libgbm: scan-out buffers allocated by the DRM device's driver, and the dma-buf CPU-access ioctl.
#include <stdint.h>
#include <gbm.h>
#include <sys/ioctl.h>
#include <linux/dma-buf.h>

// __gbm_fourcc_code() is a macro Swift cannot import.
static const uint32_t CGBM_FORMAT_XRGB8888 = GBM_FORMAT_XRGB8888;

// Brackets CPU writes to a mapped dma-buf (DMA_BUF_IOCTL_SYNC): `end` 0 before them, 1 after.
// Returns ioctl's result: 0, or -1 with errno set.
static inline int cgbm_dmabuf_sync_write(int fd, int end) {
    struct dma_buf_sync sync = {0};
    sync.flags = DMA_BUF_SYNC_WRITE | (end ? DMA_BUF_SYNC_END : DMA_BUF_SYNC_START);
    return ioctl(fd, DMA_BUF_IOCTL_SYNC, &sync);
}
