// libpng's simplified API (png_image_*).
#include <stdint.h>
#include <png.h>
static const uint32_t CPNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
static const uint32_t CPNG_FORMAT_BGRA = PNG_FORMAT_BGRA;
static const uint32_t CPNG_IMAGE_VERSION = PNG_IMAGE_VERSION;
// Reading 16-bit files as sRGB-encoded (as other decoders do) rather than as linear light.
static const uint32_t CPNG_IMAGE_FLAG_16BIT_sRGB = PNG_IMAGE_FLAG_16BIT_sRGB;
