// libdrm: KMS resources, atomic mode setting, dumb buffers and the DRM event reader.
#include <stdint.h>
#include <string.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
// The KMS output's event fd: an epoll set over the DRM fd and its frame timer.
#include <sys/epoll.h>

// fourcc_code() is a macro Swift cannot import.
static const uint32_t CDRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;

// Where a page flip's completion is written: the user data of the atomic commit that asked for it.
typedef struct CDRMFlip {
    uint32_t completed;
    uint32_t sequence;
    uint32_t seconds;
    uint32_t microseconds;
    uint32_t crtc;
} CDRMFlip;

static void cdrm_flip_handler(int fd, unsigned int sequence, unsigned int seconds, unsigned int microseconds,
                              unsigned int crtc, void *data) {
    (void)fd;
    CDRMFlip *flip = (CDRMFlip *)data;
    if (flip == NULL) return;
    flip->completed = 1;
    flip->sequence = sequence;
    flip->seconds = seconds;
    flip->microseconds = microseconds;
    flip->crtc = crtc;
}

// Reads the DRM events waiting on `fd` (drmHandleEvent), recording each page flip's completion in the
// CDRMFlip its commit passed as user data. Returns drmHandleEvent's result: 0, or -1 with errno set
// (EAGAIN on a non-blocking fd with nothing to read).
static inline int cdrm_handle_events(int fd) {
    drmEventContext context;
    memset(&context, 0, sizeof context);
    context.version = 3;
    context.page_flip_handler2 = cdrm_flip_handler;
    return drmHandleEvent(fd, &context);
}

// fourcc_mod_code() is a macro Swift cannot import.
static const uint64_t CDRM_FORMAT_MOD_LINEAR = DRM_FORMAT_MOD_LINEAR;
static const uint64_t CDRM_FORMAT_MOD_INVALID = DRM_FORMAT_MOD_INVALID;
