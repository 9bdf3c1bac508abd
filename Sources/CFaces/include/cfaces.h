// A C face on dlib's frontal face detector (libdlib-dev; its HOG model is compiled into the
// header, so no model file is read), for Swift.
#ifndef CFACES_H
#define CFACES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A detector and the pictures it reuses; one thread at a time.
typedef struct cfaces_detector cfaces_detector;

/// A face found: its box in the picture's pixels, and how sure the detector is (above the
/// threshold asked for; true faces score about 0.5 to 1.5).
typedef struct cfaces_face {
    int x, y, width, height;
    float confidence;
} cfaces_face;

/// A detector, or NULL when dlib cannot make one.
cfaces_detector *cfaces_create(void);

/// Frees a detector.
void cfaces_destroy(cfaces_detector *detector);

/// Finds faces in a `width`×`height` luma picture whose rows are `row_bytes` apart, looked for
/// in a copy at most `detection_width` wide (a face must be about 80 pixels wide there), scoring
/// above `threshold`. Writes at most `limit` faces to `faces` (in the picture's pixels) and
/// returns how many it wrote, or -1 when dlib failed.
int cfaces_find(cfaces_detector *detector, const uint8_t *luma, int width, int height, int row_bytes, int detection_width,
                float threshold, cfaces_face *faces, int limit);

#ifdef __cplusplus
}
#endif

#endif
