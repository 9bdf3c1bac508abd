// The dlib half of the C face: see include/cfaces.h.
#include "cfaces.h"

#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms.h>

#include <cmath>
#include <cstring>
#include <exception>
#include <vector>

struct cfaces_detector {
    dlib::frontal_face_detector detector = dlib::get_frontal_face_detector();
    // Kept from one picture to the next: the copy read and its scaled-down version.
    dlib::array2d<unsigned char> picture, scaled;
    std::vector<dlib::rect_detection> found;
};

cfaces_detector *cfaces_create(void) {
    try {
        return new cfaces_detector;
    } catch (const std::exception &) {
        return nullptr;
    }
}

void cfaces_destroy(cfaces_detector *detector) { delete detector; }

int cfaces_find(cfaces_detector *detector, const uint8_t *luma, int width, int height, int row_bytes, int detection_width,
                float threshold, cfaces_face *faces, int limit) {
    try {
        detector->picture.set_size(height, width);
        for (int y = 0; y < height; y++) std::memcpy(&detector->picture[y][0], luma + static_cast<size_t>(y) * row_bytes, width);
        dlib::array2d<unsigned char> *read = &detector->picture;
        double scale = 1;
        if (detection_width > 0 && width > detection_width) {
            detector->scaled.set_size(static_cast<long>(height) * detection_width / width, detection_width);
            dlib::resize_image(detector->picture, detector->scaled);
            read = &detector->scaled;
            scale = static_cast<double>(width) / detection_width;
        }
        detector->found.clear();
        detector->detector(*read, detector->found, threshold);
        int count = 0;
        for (const auto &face : detector->found) {
            if (count == limit) break;
            cfaces_face &out = faces[count++];
            out.x = static_cast<int>(std::lround(face.rect.left() * scale));
            out.y = static_cast<int>(std::lround(face.rect.top() * scale));
            out.width = static_cast<int>(std::lround(face.rect.width() * scale));
            out.height = static_cast<int>(std::lround(face.rect.height() * scale));
            out.confidence = static_cast<float>(face.detection_confidence);
        }
        return count;
    } catch (const std::exception &) {
        return -1;
    }
}
