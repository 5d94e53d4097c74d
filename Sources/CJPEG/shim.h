// libjpeg-turbo, with decode and encode helpers that catch libjpeg's errors.
//
// libjpeg reports a fatal error by calling error_exit, which must not return; Swift cannot unwind
// through a longjmp, so the whole libjpeg call sequence lives here, behind setjmp, and errors come
// back as a status code. Warnings (corrupt or truncated data, which libjpeg would otherwise patch
// over with grey) count as failures too, and nothing is printed.
#ifndef CJPEG_SHIM_H
#define CJPEG_SHIM_H
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

/// The call succeeded.
static const int CJPEG_OK = 0;
/// libjpeg reported an error or a warning (corrupt, truncated or unsupported data).
static const int CJPEG_ERROR_DATA = 1;
/// The image is larger than the caller's limits.
static const int CJPEG_ERROR_TOO_LARGE = 2;
/// Memory for the pixels could not be allocated.
static const int CJPEG_ERROR_MEMORY = 3;

struct cjpeg_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
};

static void cjpeg_error_exit(j_common_ptr cinfo) {
    struct cjpeg_error_manager *manager = (struct cjpeg_error_manager *)cinfo->err;
    longjmp(manager->jump, 1);
}

static void cjpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

/// Decodes a baseline or progressive JPEG (gray or YCbCr/RGB) held in `data` to RGBA with alpha 255,
/// rows top first, `width × 4` bytes each. On CJPEG_OK, `*pixels` holds `width × height × 4` bytes
/// that the caller frees with `free`. Images wider or taller than `max_side`, or with more than
/// `max_bytes` of RGBA, give CJPEG_ERROR_TOO_LARGE before any pixel memory is allocated.
static inline int cjpeg_decode_rgba(
    const uint8_t *data, size_t size, uint32_t max_side, size_t max_bytes, uint8_t **pixels, uint32_t *width,
    uint32_t *height) {
    struct jpeg_decompress_struct cinfo;
    struct cjpeg_error_manager error;
    uint8_t *volatile out = NULL;
    volatile int status = CJPEG_ERROR_DATA;
    *pixels = NULL;
    *width = 0;
    *height = 0;
    if (size == 0 || size > (size_t)0xFFFFFFFFu) return CJPEG_ERROR_DATA;
    cinfo.err = jpeg_std_error(&error.base);
    error.base.error_exit = cjpeg_error_exit;
    error.base.output_message = cjpeg_output_message;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(out);
        return status;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if (cinfo.jpeg_color_space != JCS_GRAYSCALE && cinfo.jpeg_color_space != JCS_YCbCr &&
        cinfo.jpeg_color_space != JCS_RGB) {
        longjmp(error.jump, 1);
    }
    cinfo.out_color_space = JCS_EXT_RGBA;
    jpeg_calc_output_dimensions(&cinfo);
    size_t row = (size_t)cinfo.output_width * 4;
    if (cinfo.output_width == 0 || cinfo.output_height == 0 || cinfo.output_width > max_side ||
        cinfo.output_height > max_side || row * cinfo.output_height > max_bytes) {
        status = CJPEG_ERROR_TOO_LARGE;
        longjmp(error.jump, 1);
    }
    out = (uint8_t *)malloc(row * cinfo.output_height);
    if (out == NULL) {
        status = CJPEG_ERROR_MEMORY;
        longjmp(error.jump, 1);
    }
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW line = out + row * cinfo.output_scanline;
        if (jpeg_read_scanlines(&cinfo, &line, 1) != 1) longjmp(error.jump, 1);
    }
    jpeg_finish_decompress(&cinfo);
    if (error.base.num_warnings != 0) longjmp(error.jump, 1);
    *width = cinfo.output_width;
    *height = cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    *pixels = out;
    return CJPEG_OK;
}

/// Encodes `width × height` pixels of `components` bytes each (3: RGB, 1: gray), rows of `stride`
/// bytes, as a baseline JPEG of `quality` (1–100). On CJPEG_OK, `*jpeg` holds `*size` bytes that
/// the caller frees with `free`.
static inline int cjpeg_encode(
    const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int components, int quality,
    uint8_t **jpeg, size_t *size) {
    struct jpeg_compress_struct cinfo;
    struct cjpeg_error_manager error;
    unsigned char *volatile target = NULL;
    unsigned long length = 0;
    *jpeg = NULL;
    *size = 0;
    if (components != 1 && components != 3) return CJPEG_ERROR_DATA;
    cinfo.err = jpeg_std_error(&error.base);
    error.base.error_exit = cjpeg_error_exit;
    error.base.output_message = cjpeg_output_message;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(target);
        return CJPEG_ERROR_DATA;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&target, &length);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 3 ? JCS_RGB : JCS_GRAYSCALE;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW line = (JSAMPROW)(pixels + stride * cinfo.next_scanline);
        jpeg_write_scanlines(&cinfo, &line, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *jpeg = target;
    *size = length;
    return CJPEG_OK;
}
#endif
