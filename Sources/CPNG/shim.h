// libpng's simplified API (png_image_*).
#include <stdint.h>
#include <png.h>
static const uint32_t CPNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
static const uint32_t CPNG_FORMAT_BGRA = PNG_FORMAT_BGRA;
static const uint32_t CPNG_IMAGE_VERSION = PNG_IMAGE_VERSION;
