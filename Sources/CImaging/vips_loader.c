#include "CImaging.h"
#include "dynamic_symbol.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

// The few libvips/GObject types and enum values used here (stable parts of the libvips 8 ABI), so the
// build needs no libvips headers and the binary no libvips link.
typedef struct VipsImage VipsImage;
typedef unsigned long GType;
enum { INTERPRETATION_B_W = 1, FORMAT_UCHAR = 0, SIZE_DOWN = 2, INTERESTING_NONE = 0, INTERESTING_CENTRE = 1, FAIL_ON_TRUNCATED = 1, ACCESS_SEQUENTIAL = 1 };
static const int TRUE_VALUE = 1;

static struct {
    int (*init)(const char *argv0);
    void (*concurrency_set)(int);
    void (*cache_set_max)(int);
    void (*cache_set_max_mem)(size_t);
    VipsImage *(*image_new_from_file)(const char *name, ...);
    int (*image_get_width)(const VipsImage *);
    int (*image_get_height)(const VipsImage *);
    int (*thumbnail)(const char *filename, VipsImage **out, int width, ...);
    int (*jpegsave)(VipsImage *in, const char *filename, ...);
    GType (*type_find)(const char *basename, const char *nickname);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    void (*object_unref)(void *);
    int (*colourspace)(VipsImage *in, VipsImage **out, int space, ...);
    int (*extract_band)(VipsImage *in, VipsImage **out, int band, ...);
    int (*cast)(VipsImage *in, VipsImage **out, int format, ...);
    int (*rotate)(VipsImage *in, VipsImage **out, double angle, ...);
    int (*image_get_bands)(const VipsImage *);
    void *(*image_write_to_memory)(VipsImage *in, size_t *size);
    int (*pngsave)(VipsImage *in, const char *filename, ...);
    void (*g_free)(void *);
    VipsImage *(*image_copy_memory)(VipsImage *);
    const char *(*foreign_find_load)(const char *filename);
    int (*autorot)(VipsImage *in, VipsImage **out, ...);
    int (*resize)(VipsImage *in, VipsImage **out, double scale, ...);
    int (*rot)(VipsImage *in, VipsImage **out, int angle, ...);
    int (*extract_area)(VipsImage *in, VipsImage **out, int left, int top, int width, int height, ...);
} vips;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;

static void load(void) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_GLOBAL);
    if (library == NULL) library = dlopen("libvips.so", RTLD_NOW | RTLD_GLOBAL);
    if (library == NULL) return;
    int missing = 0;
    vips.init = shelfed_symbol(library, "vips_init", &missing);
    vips.concurrency_set = shelfed_symbol(library, "vips_concurrency_set", &missing);
    vips.cache_set_max = shelfed_symbol(library, "vips_cache_set_max", &missing);
    vips.cache_set_max_mem = shelfed_symbol(library, "vips_cache_set_max_mem", &missing);
    vips.image_new_from_file = shelfed_symbol(library, "vips_image_new_from_file", &missing);
    vips.image_get_width = shelfed_symbol(library, "vips_image_get_width", &missing);
    vips.image_get_height = shelfed_symbol(library, "vips_image_get_height", &missing);
    vips.thumbnail = shelfed_symbol(library, "vips_thumbnail", &missing);
    vips.jpegsave = shelfed_symbol(library, "vips_jpegsave", &missing);
    vips.type_find = shelfed_symbol(library, "vips_type_find", &missing);
    vips.error_buffer = shelfed_symbol(library, "vips_error_buffer", &missing);
    vips.error_clear = shelfed_symbol(library, "vips_error_clear", &missing);
    vips.object_unref = shelfed_symbol(library, "g_object_unref", &missing);
    vips.colourspace = shelfed_symbol(library, "vips_colourspace", &missing);
    vips.extract_band = shelfed_symbol(library, "vips_extract_band", &missing);
    vips.cast = shelfed_symbol(library, "vips_cast", &missing);
    vips.rotate = shelfed_symbol(library, "vips_rotate", &missing);
    vips.image_get_bands = shelfed_symbol(library, "vips_image_get_bands", &missing);
    vips.image_write_to_memory = shelfed_symbol(library, "vips_image_write_to_memory", &missing);
    vips.pngsave = shelfed_symbol(library, "vips_pngsave", &missing);
    vips.g_free = shelfed_symbol(library, "g_free", &missing);
    vips.image_copy_memory = shelfed_symbol(library, "vips_image_copy_memory", &missing);
    vips.foreign_find_load = shelfed_symbol(library, "vips_foreign_find_load", &missing);
    vips.autorot = shelfed_symbol(library, "vips_autorot", &missing);
    vips.resize = shelfed_symbol(library, "vips_resize", &missing);
    vips.rot = shelfed_symbol(library, "vips_rot", &missing);
    vips.extract_area = shelfed_symbol(library, "vips_extract_area", &missing);
    if (missing || vips.init("shelfed") != 0) return;
    vips.concurrency_set(1);
    vips.cache_set_max(0);
    vips.cache_set_max_mem(0);
    load_result = 0;
}

int shelfed_vips_start(void) {
    pthread_once(&load_once, load);
    return load_result;
}

int shelfed_vips_header(const char *path, int *width, int *height) {
    if (shelfed_vips_start() != 0) return -1;
    VipsImage *image = vips.image_new_from_file(path, "access", ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) return -1;
    *width = vips.image_get_width(image);
    *height = vips.image_get_height(image);
    vips.object_unref(image);
    return 0;
}

int shelfed_vips_derive(const char *path, const char *out, int size, int square, int quality, int *width, int *height) {
    if (shelfed_vips_start() != 0) return -1;
    VipsImage *image = NULL;
    if (vips.thumbnail(path, &image, size, "height", size, "size", SIZE_DOWN, "crop",
                       square ? INTERESTING_CENTRE : INTERESTING_NONE, "fail_on", FAIL_ON_TRUNCATED, NULL) != 0) {
        return -1;
    }
    *width = vips.image_get_width(image);
    *height = vips.image_get_height(image);
    int failed = vips.jpegsave(image, out, "Q", quality, "strip", TRUE_VALUE, "optimize_coding", TRUE_VALUE, NULL);
    vips.object_unref(image);
    return failed ? -1 : 0;
}

// Replaces *image with what `made` produced from it; 0 on success.
static int step(VipsImage **image, int made, VipsImage *next) {
    if (made != 0) return -1;
    vips.object_unref(*image);
    *image = next;
    return 0;
}

// A JPEG decoded straight at 1/2, 1/4 or 1/8 size by libjpeg's DCT scaling, as far as that stays at least
// `max_side`, then made upright. vips_thumbnail keeps a factor of two in hand for antialiasing, so for a 12 MP
// photo and a 2,000 px target it decodes all 12 MP, which took twice as long; a barcode needs no antialiasing.
static VipsImage *shrunk_jpeg(const char *path, int max_side) {
    VipsImage *header = vips.image_new_from_file(path, "access", ACCESS_SEQUENTIAL, NULL);
    if (header == NULL) return NULL;
    int width = vips.image_get_width(header), height = vips.image_get_height(header);
    vips.object_unref(header);
    int longest = width > height ? width : height;
    int shrink = 1;
    while (shrink < 8 && longest / (shrink * 2) >= max_side) shrink *= 2;
    VipsImage *image = vips.image_new_from_file(path, "shrink", shrink, "fail_on", FAIL_ON_TRUNCATED, NULL);
    if (image == NULL) return NULL;
    VipsImage *next = NULL;
    if (step(&image, vips.autorot(image, &next, NULL), next) != 0) goto failed;
    longest /= shrink;
    // Within an eighth of the target is close enough (a 4032 px photo gives 2016); resizing costs more than it saves.
    if (longest > max_side + max_side / 8) {
        if (step(&image, vips.resize(image, &next, (double)max_side / longest, NULL), next) != 0) goto failed;
    }
    return image;
failed:
    vips.object_unref(image);
    return NULL;
}

// The image at `path`, upright, shrunk to fit about `max_side` (never enlarged), turned `angle` degrees, as one
// band of 8-bit grey: what barcode and text readers want. NULL on failure.
static VipsImage *grey_image(const char *path, int max_side, double angle) {
    VipsImage *image = NULL;
    const char *loader = vips.foreign_find_load(path);
    if (loader != NULL && strcmp(loader, "VipsForeignLoadJpegFile") == 0) {
        image = shrunk_jpeg(path, max_side);
        if (image == NULL) return NULL;
    } else if (vips.thumbnail(path, &image, max_side, "height", max_side, "size", SIZE_DOWN, "fail_on",
                              FAIL_ON_TRUNCATED, NULL) != 0) {
        return NULL;
    }
    VipsImage *next = NULL;
    if (step(&image, vips.colourspace(image, &next, INTERPRETATION_B_W, NULL), next) != 0) goto failed;
    if (vips.image_get_bands(image) > 1) {  // grey plus alpha
        if (step(&image, vips.extract_band(image, &next, 0, NULL), next) != 0) goto failed;
    }
    if (step(&image, vips.cast(image, &next, FORMAT_UCHAR, NULL), next) != 0) goto failed;
    if (angle != 0) {
        // A photo opened for one top-to-bottom pass is read out of order when turned, so the grey, shrunk copy
        // (a few megabytes) is made in memory first.
        next = vips.image_copy_memory(image);
        if (next == NULL) goto failed;
        vips.object_unref(image);
        image = next;
        if (step(&image, vips.rotate(image, &next, angle, NULL), next) != 0) goto failed;
    }
    return image;
failed:
    vips.object_unref(image);
    return NULL;
}

int shelfed_vips_grey_pixels(const char *path, int max_side, double angle, unsigned char **pixels, int *width,
                             int *height) {
    if (shelfed_vips_start() != 0) return -1;
    VipsImage *image = grey_image(path, max_side, angle);
    if (image == NULL) return -1;
    *width = vips.image_get_width(image);
    *height = vips.image_get_height(image);
    size_t size = 0;
    void *memory = vips.image_write_to_memory(image, &size);
    vips.object_unref(image);
    if (memory == NULL || size != (size_t)(*width) * (size_t)(*height)) {
        if (memory != NULL) vips.g_free(memory);
        return -1;
    }
    *pixels = memory;
    return 0;
}

void shelfed_vips_free_pixels(unsigned char *pixels) {
    if (pixels != NULL && load_result == 0) vips.g_free(pixels);
}

int shelfed_vips_grey_png(const char *path, const char *out, int max_side) {
    if (shelfed_vips_start() != 0) return -1;
    VipsImage *image = grey_image(path, max_side, 0);
    if (image == NULL) return -1;
    int failed = vips.pngsave(image, out, "compression", 1, "strip", TRUE_VALUE, NULL);
    vips.object_unref(image);
    return failed ? -1 : 0;
}

// Rounds a fraction of `length` pixels to a whole pixel inside 0…length.
static int edge(double fraction, int length) {
    int pixels = (int)(fraction * length + 0.5);
    return pixels < 0 ? 0 : pixels > length ? length : pixels;
}

int shelfed_vips_edit(const char *path, const char *out, int size, int quality, int quarter_turns, double left,
                      double top, double right, double bottom, int *width, int *height) {
    if (shelfed_vips_start() != 0) return -1;
    // The upright size from the header alone (autorot is lazy), to choose how far the JPEG may shrink as it
    // decodes: the kept area must still fill `size`.
    VipsImage *header = vips.image_new_from_file(path, "access", ACCESS_SEQUENTIAL, NULL);
    if (header == NULL) return -1;
    VipsImage *upright = NULL;
    if (vips.autorot(header, &upright, NULL) != 0) {
        vips.object_unref(header);
        return -1;
    }
    int full_width = vips.image_get_width(upright), full_height = vips.image_get_height(upright);
    vips.object_unref(upright);
    vips.object_unref(header);
    if (quarter_turns % 2) {
        int swap = full_width;
        full_width = full_height;
        full_height = swap;
    }
    double kept_width = full_width * (1 - left - right), kept_height = full_height * (1 - top - bottom);
    double kept_longest = kept_width > kept_height ? kept_width : kept_height;
    int shrink = 1;
    const char *loader = vips.foreign_find_load(path);
    int is_jpeg = loader != NULL && strcmp(loader, "VipsForeignLoadJpegFile") == 0;
    while (is_jpeg && shrink < 8 && kept_longest / (shrink * 2) >= size) shrink *= 2;

    // Turning needs the pixels in any order, so this decode is not sequential; shrunk, a 12 MP photo is 9 MB.
    VipsImage *image = is_jpeg ? vips.image_new_from_file(path, "shrink", shrink, "fail_on", FAIL_ON_TRUNCATED, NULL)
                               : vips.image_new_from_file(path, "fail_on", FAIL_ON_TRUNCATED, NULL);
    if (image == NULL) return -1;
    VipsImage *next = NULL;
    if (step(&image, vips.autorot(image, &next, NULL), next) != 0) goto failed;
    if (quarter_turns % 4) {
        if (step(&image, vips.rot(image, &next, quarter_turns % 4, NULL), next) != 0) goto failed;
    }
    int image_width = vips.image_get_width(image), image_height = vips.image_get_height(image);
    int x = edge(left, image_width), y = edge(top, image_height);
    int w = image_width - x - edge(right, image_width), h = image_height - y - edge(bottom, image_height);
    // Rounding each edge of a tiny picture can meet in the middle; a crop within the rules keeps at least a pixel.
    if (w < 1) {
        w = 1;
        if (x > image_width - 1) x = image_width - 1;
    }
    if (h < 1) {
        h = 1;
        if (y > image_height - 1) y = image_height - 1;
    }
    if (w != image_width || h != image_height) {
        if (step(&image, vips.extract_area(image, &next, x, y, w, h, NULL), next) != 0) goto failed;
    }
    int longest = w > h ? w : h;
    if (longest > size) {
        if (step(&image, vips.resize(image, &next, (double)size / longest, NULL), next) != 0) goto failed;
    }
    *width = vips.image_get_width(image);
    *height = vips.image_get_height(image);
    int failed = vips.jpegsave(image, out, "Q", quality, "strip", TRUE_VALUE, "optimize_coding", TRUE_VALUE, NULL);
    vips.object_unref(image);
    return failed ? -1 : 0;
failed:
    vips.object_unref(image);
    return -1;
}

int shelfed_vips_can_read_heif(void) {
    if (shelfed_vips_start() != 0) return 0;
    return vips.type_find("VipsOperation", "heifload") != 0;
}

const char *shelfed_vips_error(void) {
    return load_result == 0 ? vips.error_buffer() : "libvips could not be loaded (install libvips42)";
}

void shelfed_vips_clear_error(void) {
    if (load_result == 0) vips.error_clear();
}


