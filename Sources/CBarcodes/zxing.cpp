// The zxing-cpp half of the C face: see include/cbarcodes.h.
// ZXing 1.4 gives text as UTF-8 with this defined (as its next releases always do).
#define ZX_USE_UTF8 1

#include "cbarcodes.h"

#include <ZXing/BarcodeFormat.h>
#include <ZXing/BitMatrix.h>
#include <ZXing/DecodeHints.h>
#include <ZXing/MultiFormatWriter.h>
#include <ZXing/ReadBarcode.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

int cbarcodes_read_matrix(const uint8_t *pixels, int width, int height, int row_bytes, cbarcodes_layout layout, int formats,
                          cbarcodes_code **codes) {
    *codes = nullptr;
    try {
        ZXing::ImageFormat format = layout == CBARCODES_BGRX ? ZXing::ImageFormat::BGRX : ZXing::ImageFormat::Lum;
        ZXing::ImageView view(pixels, width, height, format, row_bytes);
        ZXing::DecodeHints hints;
        // Matrix codes only: zxing-cpp 1.4 (Debian 12's) aborts on an assertion when it
        // compares two results of one linear format; ZBar reads those.
        hints.setFormats(ZXing::BarcodeFormats(static_cast<ZXing::BarcodeFormat>(formats)) & ZXing::BarcodeFormat::MatrixCodes);
        hints.setTryHarder(true);
        hints.setTryRotate(true);
        std::vector<ZXing::Result> results = ZXing::ReadBarcodes(view, hints);
        int count = 0;
        for (const auto &result : results) count += result.isValid() ? 1 : 0;
        if (count == 0) return 0;
        auto *out = static_cast<cbarcodes_code *>(std::calloc(count, sizeof(cbarcodes_code)));
        if (out == nullptr) return -1;
        int index = 0;
        for (const auto &result : results) {
            if (!result.isValid()) continue;
            cbarcodes_code &code = out[index++];
            code.format = static_cast<int>(result.format());
            std::string text = result.text();
            code.text = static_cast<char *>(std::malloc(text.size() + 1));
            if (code.text != nullptr) std::memcpy(code.text, text.c_str(), text.size() + 1);
            const auto &position = result.position();
            const ZXing::PointI points[4] = {position.topLeft(), position.topRight(), position.bottomRight(), position.bottomLeft()};
            for (int corner = 0; corner < 4; corner++) {
                code.corners[corner * 2] = points[corner].x;
                code.corners[corner * 2 + 1] = points[corner].y;
            }
        }
        *codes = out;
        return count;
    } catch (const std::exception &) {
        return -1;
    }
}

int cbarcodes_write(const char *text, int format, int width, int height, uint8_t *modules, int *drawn_width, int *drawn_height) {
    try {
        ZXing::MultiFormatWriter writer(static_cast<ZXing::BarcodeFormat>(format));
        writer.setMargin(0);
        // Width and height 0: one pixel a module.
        ZXing::BitMatrix matrix = writer.encode(std::string(text), 0, 0);
        if (matrix.width() > width || matrix.height() > height) return -1;
        for (int y = 0; y < matrix.height(); y++)
            for (int x = 0; x < matrix.width(); x++) modules[y * matrix.width() + x] = matrix.get(x, y) ? 1 : 0;
        *drawn_width = matrix.width();
        *drawn_height = matrix.height();
        return 0;
    } catch (const std::exception &) {
        return -1;
    }
}
