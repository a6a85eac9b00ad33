#include "CImaging.h"

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>
#include <stddef.h>

// The few libvips/GObject types and enum values used here (stable parts of the libvips 8 ABI), so the
// build needs no libvips headers and the binary no libvips link.
typedef struct VipsImage VipsImage;
typedef unsigned long GType;
enum { SIZE_DOWN = 2, INTERESTING_NONE = 0, INTERESTING_CENTRE = 1, FAIL_ON_TRUNCATED = 1, ACCESS_SEQUENTIAL = 1 };
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
} vips;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;

static void *symbol(void *library, const char *name, int *missing) {
    void *found = dlsym(library, name);
    if (found == NULL) *missing = 1;
    return found;
}

static void load(void) {
    void *library = dlopen("libvips.so.42", RTLD_NOW | RTLD_GLOBAL);
    if (library == NULL) library = dlopen("libvips.so", RTLD_NOW | RTLD_GLOBAL);
    if (library == NULL) return;
    int missing = 0;
    vips.init = symbol(library, "vips_init", &missing);
    vips.concurrency_set = symbol(library, "vips_concurrency_set", &missing);
    vips.cache_set_max = symbol(library, "vips_cache_set_max", &missing);
    vips.cache_set_max_mem = symbol(library, "vips_cache_set_max_mem", &missing);
    vips.image_new_from_file = symbol(library, "vips_image_new_from_file", &missing);
    vips.image_get_width = symbol(library, "vips_image_get_width", &missing);
    vips.image_get_height = symbol(library, "vips_image_get_height", &missing);
    vips.thumbnail = symbol(library, "vips_thumbnail", &missing);
    vips.jpegsave = symbol(library, "vips_jpegsave", &missing);
    vips.type_find = symbol(library, "vips_type_find", &missing);
    vips.error_buffer = symbol(library, "vips_error_buffer", &missing);
    vips.error_clear = symbol(library, "vips_error_clear", &missing);
    vips.object_unref = symbol(library, "g_object_unref", &missing);
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

void shelfed_release_memory(void) { malloc_trim(0); }
