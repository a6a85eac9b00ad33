// Non-variadic wrappers over the few libvips calls Shelfed needs; Swift cannot call C variadic functions.
#ifndef SHELFED_CIMAGING_H
#define SHELFED_CIMAGING_H

#include <vips/vips.h>

/// Starts libvips once, with one worker thread and no operation cache: a household server handles
/// one or two photos at a time and memory matters more than throughput.
static inline int shelfed_vips_start(void) {
    if (VIPS_INIT("shelfed")) return -1;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    return 0;
}

/// Opens only the header of an image file (pixels are decoded later, if at all) to read its size.
static inline int shelfed_vips_header(const char *path, int *width, int *height) {
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

/// Shrinks the image at `path` to fit `size`×`size` (never enlarging), upright per its EXIF orientation,
/// cropped to a square when `square` is set, and saves it as a JPEG without any metadata.
/// A truncated or corrupt file fails instead of producing a half-grey picture.
static inline int shelfed_vips_derive(const char *path, const char *out, int size, int square, int quality,
                                      int *width, int *height) {
    VipsImage *image = NULL;
    int failed = vips_thumbnail(path, &image, size, "height", size, "size", VIPS_SIZE_DOWN,
                                "crop", square ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE,
                                "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
    if (failed) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    failed = vips_jpegsave(image, out, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
    g_object_unref(image);
    return failed ? -1 : 0;
}

/// Whether this libvips build can read HEIC/HEIF (iPhone) photos.
static inline int shelfed_vips_can_read_heif(void) {
    return vips_type_find("VipsOperation", "heifload") != 0;
}

/// The last error libvips reported (for logs), cleared afterwards by `shelfed_vips_clear_error`.
static inline const char *shelfed_vips_error(void) { return vips_error_buffer(); }
static inline void shelfed_vips_clear_error(void) { vips_error_clear(); }

#endif
