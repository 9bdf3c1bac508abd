import CFFmpeg
import OpenCoreVideo

extension CVBuffer {
    /// A pixel buffer that shares a decoded frame's memory, without copying it, when CoreVideo
    /// has a format with the frame's layout; nil otherwise (the frame must be converted). The
    /// frame stays alive until the pixel buffer goes away; its colour becomes the buffer's
    /// attachments.
    package static func sharing(_ frame: Frame) -> CVPixelBuffer? {
        let f = frame.pointer.pointee
        let fullRange = f.color_range == AVCOL_RANGE_JPEG
        guard let type = PixelFormatMapping.pixelFormatType(for: AVPixelFormat(rawValue: f.format), fullRange: fullRange),
              let layout = CVPixelFormatDescription.description(for: type),
              let image = try? PixelConverter.image(of: frame),
              image.planes.count == layout.planes.count,
              image.strides.allSatisfy({ $0 > 0 })
        else { return nil }
        var planes: [CVPixelBufferPlane] = []
        for (index, plane) in layout.planes.enumerated() {
            guard let base = image.planes[index] else { return nil }
            planes.append(CVPixelBufferPlane(baseAddress: UnsafeMutableRawPointer(base),
                                             width: plane.width(forImageWidth: Int(f.width)),
                                             height: plane.height(forImageHeight: Int(f.height)),
                                             bytesPerRow: Int(image.strides[index])))
        }
        let buffer = CVBuffer(pixelFormatType: type, width: Int(f.width), height: Int(f.height), planes: planes,
                              release: { withExtendedLifetime(frame) {} })
        ColorDescription(of: frame).attach(to: buffer)
        return buffer
    }
}
