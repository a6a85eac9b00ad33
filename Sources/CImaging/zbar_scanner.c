#include "CImaging.h"
#include "dynamic_symbol.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

// zbar, like libvips, is opened on first use (Debian's libzbar0), so the build needs no zbar headers and a server
// that never scans never maps it. The types and values below are zbar 0.2x's stable ABI.
typedef struct zbar_image_scanner_s zbar_image_scanner_t;
typedef struct zbar_image_s zbar_image_t;
typedef struct zbar_symbol_s zbar_symbol_t;
enum { ZBAR_ALL = 0, ZBAR_UPCA = 12, ZBAR_EAN13 = 13, ZBAR_CFG_ENABLE = 0, ZBAR_CFG_X_DENSITY = 0x100,
       ZBAR_CFG_Y_DENSITY = 0x101 };

static struct {
    zbar_image_scanner_t *(*scanner_create)(void);
    void (*scanner_destroy)(zbar_image_scanner_t *);
    int (*scanner_set_config)(zbar_image_scanner_t *, int symbology, int config, int value);
    zbar_image_t *(*image_create)(void);
    void (*image_destroy)(zbar_image_t *);
    void (*image_set_format)(zbar_image_t *, unsigned long format);
    void (*image_set_size)(zbar_image_t *, unsigned width, unsigned height);
    void (*image_set_data)(zbar_image_t *, const void *data, unsigned long length, void *cleanup);
    int (*scan_image)(zbar_image_scanner_t *, zbar_image_t *);
    const zbar_symbol_t *(*image_first_symbol)(const zbar_image_t *);
    const zbar_symbol_t *(*symbol_next)(const zbar_symbol_t *);
    int (*symbol_get_type)(const zbar_symbol_t *);
    const char *(*symbol_get_data)(const zbar_symbol_t *);
    unsigned (*symbol_get_loc_size)(const zbar_symbol_t *);
    int (*symbol_get_loc_x)(const zbar_symbol_t *, unsigned index);
    int (*symbol_get_loc_y)(const zbar_symbol_t *, unsigned index);
} zbar;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_result = -1;

static void load(void) {
    void *library = dlopen("libzbar.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    int missing = 0;
    zbar.scanner_create = shelfed_symbol(library, "zbar_image_scanner_create", &missing);
    zbar.scanner_destroy = shelfed_symbol(library, "zbar_image_scanner_destroy", &missing);
    zbar.scanner_set_config = shelfed_symbol(library, "zbar_image_scanner_set_config", &missing);
    zbar.image_create = shelfed_symbol(library, "zbar_image_create", &missing);
    zbar.image_destroy = shelfed_symbol(library, "zbar_image_destroy", &missing);
    zbar.image_set_format = shelfed_symbol(library, "zbar_image_set_format", &missing);
    zbar.image_set_size = shelfed_symbol(library, "zbar_image_set_size", &missing);
    zbar.image_set_data = shelfed_symbol(library, "zbar_image_set_data", &missing);
    zbar.scan_image = shelfed_symbol(library, "zbar_scan_image", &missing);
    zbar.image_first_symbol = shelfed_symbol(library, "zbar_image_first_symbol", &missing);
    zbar.symbol_next = shelfed_symbol(library, "zbar_symbol_next", &missing);
    zbar.symbol_get_type = shelfed_symbol(library, "zbar_symbol_get_type", &missing);
    zbar.symbol_get_data = shelfed_symbol(library, "zbar_symbol_get_data", &missing);
    zbar.symbol_get_loc_size = shelfed_symbol(library, "zbar_symbol_get_loc_size", &missing);
    zbar.symbol_get_loc_x = shelfed_symbol(library, "zbar_symbol_get_loc_x", &missing);
    zbar.symbol_get_loc_y = shelfed_symbol(library, "zbar_symbol_get_loc_y", &missing);
    if (!missing) load_result = 0;
}

int shelfed_zbar_available(void) {
    pthread_once(&load_once, load);
    return load_result == 0;
}

// Where a symbol begins: the leftmost point of the scan lines that read it (zbar reports one symbol for two
// identical barcodes, with the points of both, so a centre would fall between them).
static void leftmost(const zbar_symbol_t *found, int *x, int *y) {
    unsigned points = zbar.symbol_get_loc_size(found);
    *x = 0;
    *y = 0;
    for (unsigned index = 0; index < points; index++) {
        int point_x = zbar.symbol_get_loc_x(found, index);
        if (index == 0 || point_x < *x) {
            *x = point_x;
            *y = zbar.symbol_get_loc_y(found, index);
        }
    }
}

int shelfed_zbar_scan(const unsigned char *pixels, int width, int height, char *results, int slot, int *xs, int *ys,
                      int capacity) {
    if (!shelfed_zbar_available()) return -1;
    zbar_image_scanner_t *scanner = zbar.scanner_create();
    if (scanner == NULL) return -1;
    // Only book barcodes: every other symbology off, so a QR code or a shop's Code 128 label is not reported.
    zbar.scanner_set_config(scanner, ZBAR_ALL, ZBAR_CFG_ENABLE, 0);
    zbar.scanner_set_config(scanner, ZBAR_EAN13, ZBAR_CFG_ENABLE, 1);
    zbar.scanner_set_config(scanner, ZBAR_UPCA, ZBAR_CFG_ENABLE, 1);
    // Every second row and every second column: a barcode standing on its side is read as well as one lying flat,
    // and bars are tall enough that skipping alternate lines loses none (it halves the scan's time).
    zbar.scanner_set_config(scanner, ZBAR_ALL, ZBAR_CFG_X_DENSITY, 2);
    zbar.scanner_set_config(scanner, ZBAR_ALL, ZBAR_CFG_Y_DENSITY, 2);
    zbar_image_t *image = zbar.image_create();
    if (image == NULL) {
        zbar.scanner_destroy(scanner);
        return -1;
    }
    zbar.image_set_format(image, 0x30303859UL);  // fourcc "Y800": 8-bit grey
    zbar.image_set_size(image, (unsigned)width, (unsigned)height);
    zbar.image_set_data(image, pixels, (unsigned long)width * (unsigned long)height, NULL);
    int count = 0;
    if (zbar.scan_image(scanner, image) > 0) {
        for (const zbar_symbol_t *found = zbar.image_first_symbol(image); found != NULL && count < capacity;
             found = zbar.symbol_next(found)) {
            int type = zbar.symbol_get_type(found);
            const char *data = zbar.symbol_get_data(found);
            if ((type != ZBAR_EAN13 && type != ZBAR_UPCA) || data == NULL || strlen(data) >= (size_t)slot) continue;
            strcpy(results + (size_t)count * (size_t)slot, data);
            leftmost(found, &xs[count], &ys[count]);
            count += 1;
        }
    }
    zbar.image_destroy(image);
    zbar.scanner_destroy(scanner);
    return count;
}
