// libudev: the device monitor that reports DRM hot-plug events.
#include <libudev.h>
