// Shelfed's window on libvips. libvips (and the ~130 libraries it pulls in) is loaded with dlopen the first
// time a photo is processed, not linked: linking it raised the server's idle memory from 38 MB to 57 MB.
#ifndef SHELFED_CIMAGING_H
#define SHELFED_CIMAGING_H

/// Loads and starts libvips once (one worker thread, no operation cache). 0 on success.
int shelfed_vips_start(void);

/// Reads only the header of an image file to get its size. 0 on success.
int shelfed_vips_header(const char *path, int *width, int *height);

/// Shrinks the image at `path` to fit `size`×`size` (never enlarging), upright per its EXIF orientation,
/// cropped to a square when `square` is set, and saves a JPEG without metadata. A truncated or corrupt
/// file fails instead of giving a half-grey picture. 0 on success.
int shelfed_vips_derive(const char *path, const char *out, int size, int square, int quality, int *width, int *height);

/// The image at `path` upright, turned `quarter_turns` × 90° clockwise, with the given fractions of its width and
/// height cut from each edge (after turning), shrunk to fit `size`×`size` and saved as a JPEG without metadata: a
/// photo's touch-ups, always made from the untouched original. 0 on success.
int shelfed_vips_edit(const char *path, const char *out, int size, int quality, int quarter_turns, double left,
                      double top, double right, double bottom, int *width, int *height);

/// The image at `path` upright, shrunk to fit `max_side` (never enlarged), turned `angle` degrees clockwise, as
/// 8-bit grey pixels, row by row, `width` × `height` bytes. Free them with shelfed_vips_free_pixels. 0 on success.
int shelfed_vips_grey_pixels(const char *path, int max_side, double angle, unsigned char **pixels, int *width,
                             int *height);
void shelfed_vips_free_pixels(unsigned char *pixels);

/// Saves the image at `path` upright, shrunk to fit `max_side`, in grey as a PNG without metadata (for OCR). 0 on success.
int shelfed_vips_grey_png(const char *path, const char *out, int max_side);

/// Finds EAN-13 and UPC-A barcodes in 8-bit grey pixels with zbar (loaded with dlopen on first use), scanning rows
/// and columns. Writes each symbol's digits, NUL-terminated, into consecutive `slot`-byte slots of `results`, and
/// where it was seen into `xs` and `ys`, at most `capacity` of them. Returns how many were written, or -1 when zbar
/// is not installed.
int shelfed_zbar_scan(const unsigned char *pixels, int width, int height, char *results, int slot, int *xs, int *ys,
                      int capacity);

/// 1 when zbar can be loaded.
int shelfed_zbar_available(void);

/// 1 when this libvips can read HEIC/HEIF (iPhone) photos.
int shelfed_vips_can_read_heif(void);

/// The last error libvips reported, and clearing it.
const char *shelfed_vips_error(void);
void shelfed_vips_clear_error(void);

#endif
