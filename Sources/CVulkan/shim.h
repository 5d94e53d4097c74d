// Vulkan core API, plus the macros Swift cannot import, re-exported as constants and functions.
#include <vulkan/vulkan_core.h>

static inline uint32_t cvk_make_api_version(uint32_t variant, uint32_t major, uint32_t minor, uint32_t patch) {
    return VK_MAKE_API_VERSION(variant, major, minor, patch);
}
static inline uint32_t cvk_api_version_major(uint32_t v) { return VK_API_VERSION_MAJOR(v); }
static inline uint32_t cvk_api_version_minor(uint32_t v) { return VK_API_VERSION_MINOR(v); }
static const uint32_t CVK_API_VERSION_1_3 = VK_API_VERSION_1_3;
