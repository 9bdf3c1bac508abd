// The ZBar half of the C face: see include/cbarcodes.h.
#include "cbarcodes.h"

#include <zbar.h>

// zbar.h puts its C API in namespace zbar when compiled as C++.
using namespace zbar;

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

/// ZXing's BarcodeFormat bit of a ZBar symbol type (0 for one not asked for here).
int format_of(zbar_symbol_type_t type) {
    switch (type) {
    case ZBAR_EAN8: return 1 << 8;
    case ZBAR_UPCA:
    case ZBAR_EAN13: return 1 << 9;
    case ZBAR_UPCE: return 1 << 15;
    case ZBAR_I25: return 1 << 10;
    case ZBAR_DATABAR: return 1 << 5;
    case ZBAR_DATABAR_EXP: return 1 << 6;
    case ZBAR_CODABAR: return 1 << 1;
    case ZBAR_CODE39: return 1 << 2;
    case ZBAR_CODE93: return 1 << 3;
    case ZBAR_CODE128: return 1 << 4;
    default: return 0;
    }
}

/// The ZBar symbol types of ZXing's BarcodeFormat bits.
std::vector<zbar_symbol_type_t> types_of(int formats) {
    std::vector<zbar_symbol_type_t> types;
    const zbar_symbol_type_t all[] = {ZBAR_EAN8, ZBAR_EAN13, ZBAR_UPCE, ZBAR_I25, ZBAR_DATABAR, ZBAR_DATABAR_EXP,
                                      ZBAR_CODABAR, ZBAR_CODE39, ZBAR_CODE93, ZBAR_CODE128};
    for (auto type : all)
        if (formats & format_of(type)) types.push_back(type);
    return types;
}

/// Moves a linear code's box (`box`: left, top, right, bottom, the last two past the end) out
/// to its outermost bars: ZBar's points mark where its scan lines recognized the code, some
/// pixels inside its ends, and its guard bars may reach below the others. Along the middle of
/// the code (across its bars: rows when `across_rows`, else columns) each end moves out over
/// gaps up to nine of the code's narrowest elements wide (a quiet zone is wider); then the end
/// bars are followed along their length.
void reach_ends(const uint8_t *luma, int width, int height, int box[4], bool across_rows) {
    // u runs across the bars, v along them.
    auto dark_at = [&](int u, int v, int threshold) {
        int x = across_rows ? u : v, y = across_rows ? v : u;
        return x >= 0 && y >= 0 && x < width && y < height && luma[y * width + x] < threshold;
    };
    int &u0 = across_rows ? box[0] : box[1], &v0 = across_rows ? box[1] : box[0];
    int &u1 = across_rows ? box[2] : box[3], &v1 = across_rows ? box[3] : box[2];
    int uLimit = across_rows ? width : height, vLimit = across_rows ? height : width;
    if (u1 - u0 < 4 || v1 <= v0) return;
    int v = (v0 + v1) / 2;
    // The threshold between the darkest and lightest pixels across the code, and its narrowest
    // element.
    int darkest = 255, lightest = 0;
    for (int u = u0; u < u1; u++) {
        int x = across_rows ? u : v, y = across_rows ? v : u;
        int value = luma[y * width + x];
        darkest = std::min(darkest, value), lightest = std::max(lightest, value);
    }
    if (lightest - darkest < 32) return;
    int threshold = (darkest + lightest + 1) / 2;
    int narrowest = u1 - u0, run = 1;
    for (int u = u0 + 1; u < u1; u++) {
        if (dark_at(u, v, threshold) == dark_at(u - 1, v, threshold)) {
            run++;
        } else {
            narrowest = std::min(narrowest, run);
            run = 1;
        }
    }
    int gap = 9 * std::max(1, narrowest);
    int first = u0, last = u1 - 1;
    for (int u = u0 - 1; u >= 0 && first - u <= gap; u--)
        if (dark_at(u, v, threshold)) first = u;
    for (int u = u1; u < uLimit && u - last <= gap; u++)
        if (dark_at(u, v, threshold)) last = u;
    while (first < u1 && !dark_at(first, v, threshold)) first++;
    while (last > u0 && !dark_at(last, v, threshold)) last--;
    if (first > last) return;
    u0 = first, u1 = last + 1;
    // Along the end bars: as far as either is dark.
    for (int end : {first, last}) {
        int top = v, bottom = v;
        while (top > 0 && dark_at(end, top - 1, threshold)) top--;
        while (bottom + 1 < vLimit && dark_at(end, bottom + 1, threshold)) bottom++;
        v0 = std::min(v0, top), v1 = std::max(v1, bottom + 1);
    }
}

}  // namespace

int cbarcodes_read_linear(const uint8_t *luma, int width, int height, int formats, cbarcodes_code **codes) {
    *codes = nullptr;
    std::vector<zbar_symbol_type_t> types = types_of(formats);
    if (types.empty() || width <= 0 || height <= 0) return 0;
    zbar_image_scanner_t *scanner = zbar_image_scanner_create();
    if (scanner == nullptr) return -1;
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0);
    for (auto type : types) zbar_image_scanner_set_config(scanner, type, ZBAR_CFG_ENABLE, 1);
    // Every row and every column, so that codes on end are read too.
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, 1);
    zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, 1);
    zbar_image_t *image = zbar_image_create();
    zbar_image_set_format(image, zbar_fourcc('Y', '8', '0', '0'));
    zbar_image_set_size(image, static_cast<unsigned>(width), static_cast<unsigned>(height));
    zbar_image_set_data(image, luma, static_cast<unsigned long>(width) * height, nullptr);
    int status = zbar_scan_image(scanner, image);
    int listed = 0;
    for (const zbar_symbol_t *symbol = zbar_image_first_symbol(image); symbol != nullptr; symbol = zbar_symbol_next(symbol)) listed++;
    int count = 0;
    cbarcodes_code *out = listed > 0 ? static_cast<cbarcodes_code *>(std::calloc(listed, sizeof(cbarcodes_code))) : nullptr;
    for (const zbar_symbol_t *symbol = zbar_image_first_symbol(image); out != nullptr && symbol != nullptr;
         symbol = zbar_symbol_next(symbol)) {
        int format = format_of(zbar_symbol_get_type(symbol));
        if (format == 0) continue;
        cbarcodes_code &code = out[count++];
        code.format = format;
        const char *data = zbar_symbol_get_data(symbol);
        unsigned length = zbar_symbol_get_data_length(symbol);
        code.text = static_cast<char *>(std::malloc(length + 1));
        if (code.text != nullptr) {
            std::memcpy(code.text, data, length);
            code.text[length] = 0;
        }
        // The points where scan lines crossed the code's ends: their bounding box, its corners
        // ordered as the code reads (ZBar's orientation says which way is up).
        int minX = INT_MAX, minY = INT_MAX, maxX = INT_MIN, maxY = INT_MIN;
        for (unsigned point = 0; point < zbar_symbol_get_loc_size(symbol); point++) {
            int x = zbar_symbol_get_loc_x(symbol, point), y = zbar_symbol_get_loc_y(symbol, point);
            minX = std::min(minX, x), maxX = std::max(maxX, x + 1), minY = std::min(minY, y), maxY = std::max(maxY, y + 1);
        }
        int turn = 0;
        switch (zbar_symbol_get_orientation(symbol)) {
        case ZBAR_ORIENT_RIGHT: turn = 1; break;
        case ZBAR_ORIENT_DOWN: turn = 2; break;
        case ZBAR_ORIENT_LEFT: turn = 3; break;
        default: break;
        }
        int edges[4] = {minX, minY, maxX, maxY};
        reach_ends(luma, width, height, edges, turn % 2 == 0);
        const int box[4][2] = {{edges[0], edges[1]}, {edges[2], edges[1]}, {edges[2], edges[3]}, {edges[0], edges[3]}};
        for (int corner = 0; corner < 4; corner++) {
            code.corners[corner * 2] = box[(corner + turn) % 4][0];
            code.corners[corner * 2 + 1] = box[(corner + turn) % 4][1];
        }
    }
    zbar_image_destroy(image);
    zbar_image_scanner_destroy(scanner);
    if (status < 0) {
        cbarcodes_free(out, count);
        return -1;
    }
    *codes = out;
    return count;
}
