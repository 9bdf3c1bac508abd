// A C face on the two barcode libraries, for Swift: zxing-cpp (libzxing-dev, whose API is C++)
// for matrix codes, ZBar (libzbar-dev) for linear ones. Formats are ZXing's BarcodeFormat bits
// (Aztec 1 … MicroQRCode 1 << 16) for both.
#ifndef CBARCODES_H
#define CBARCODES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How the pixels of a picture are laid out.
typedef enum cbarcodes_layout {
    /// One byte of luma a pixel (the Y plane of a 4:2:0 picture).
    CBARCODES_LUMA = 0,
    /// Four bytes a pixel: blue, green, red, unused (BGRA).
    CBARCODES_BGRX = 1,
} cbarcodes_layout;

/// A code read from a picture.
typedef struct cbarcodes_code {
    /// Its format: one BarcodeFormat bit.
    int format;
    /// Its content as UTF-8, NUL-terminated.
    char *text;
    /// Its corners in the picture's pixels: top-left, top-right, bottom-right, bottom-left (as the
    /// code is read, so turned with it), each x then y.
    int corners[8];
} cbarcodes_code;

/// Reads the matrix codes of `formats` (QR, Micro QR, Aztec, Data Matrix, PDF417) with
/// zxing-cpp in a `width`×`height` picture of `layout` whose rows are `row_bytes` apart,
/// trying hard and turned. Returns how many codes were read, their descriptions in `*codes`
/// (free them with `cbarcodes_free`), or -1 when ZXing failed (with `*codes` NULL).
int cbarcodes_read_matrix(const uint8_t *pixels, int width, int height, int row_bytes, cbarcodes_layout layout, int formats,
                          cbarcodes_code **codes);

/// Reads the linear codes of `formats` (EAN, UPC, Code 39/93/128, Interleaved 2 of 5, Codabar,
/// GS1 DataBar) with ZBar in a `width`×`height` luma picture whose rows are `width` bytes apart,
/// scanning every row and column. As `cbarcodes_read_matrix`; UPC-A codes are read as EAN-13
/// with a zero ahead (format EAN13), GS1 DataBar as its element string.
int cbarcodes_read_linear(const uint8_t *luma, int width, int height, int formats, cbarcodes_code **codes);

/// Frees what a read returned.
void cbarcodes_free(cbarcodes_code *codes, int count);

/// Draws `text` as a code of `format` (one BarcodeFormat bit) with zxing-cpp, without a quiet
/// zone, at most `width`×`height` modules, into `modules` (one byte a module: 1 dark, 0 light,
/// row after row); the size drawn in `*drawn_width`, `*drawn_height`. Returns 0, or -1 when
/// the text cannot be encoded in that format or does not fit.
int cbarcodes_write(const char *text, int format, int width, int height, uint8_t *modules, int *drawn_width, int *drawn_height);

#ifdef __cplusplus
}
#endif

#endif
