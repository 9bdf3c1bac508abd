// What both halves of the C face share: see include/cbarcodes.h.
#include "cbarcodes.h"

#include <cstdlib>

void cbarcodes_free(cbarcodes_code *codes, int count) {
    if (codes == nullptr) return;
    for (int index = 0; index < count; index++) std::free(codes[index].text);
    std::free(codes);
}
