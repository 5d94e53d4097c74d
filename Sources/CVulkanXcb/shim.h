// xcb, and Vulkan's xcb surface (VK_KHR_xcb_surface), for the window output and its tests.
#include <xcb/xcb.h>
#include <vulkan/vulkan_core.h>
#include <vulkan/vulkan_xcb.h>

// XCB_COPY_FROM_PARENT is an untyped 0L; these give it the types the calls take.
static const uint8_t CXCB_COPY_FROM_PARENT_DEPTH = XCB_COPY_FROM_PARENT;
static const xcb_visualid_t CXCB_COPY_FROM_PARENT_VISUAL = XCB_COPY_FROM_PARENT;
