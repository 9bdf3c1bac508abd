import CFFmpeg
import OpenCoreVideo

/// The one place pixels change format or size (libswscale): decoded frames into the pixel
/// format a reader asked for, pixel buffers into what an encoder takes. Keeps its scaler
/// between calls and rebuilds it only when the geometry, formats or colour details change.
package final class PixelConverter {
    /// Where pixels come from or go to: FFmpeg's format, plane pointers and strides.
    struct Image {
        var format: AVPixelFormat
        var width: Int32
        var height: Int32
        var fullRange: Bool
        var planes: [UnsafeMutablePointer<UInt8>?]
        var strides: [Int32]
    }

    /// The scaler, cached across calls.
    private var context: OpaquePointer?
    /// The colour settings last applied to `context`.
    private var appliedColor: (context: OpaquePointer, matrix: Int32, sourceFull: Bool, destinationFull: Bool)?

    /// A converter with no scaler yet.
    package init() {}

    deinit {
        sws_freeContext(context)
    }

    /// Converts (and scales, when the sizes differ) `source` into `destination`. `matrix` is
    /// the Y'CbCr matrix of whichever side is Y'CbCr (an `SWS_CS_*` value).
    func convert(_ source: Image, into destination: Image, matrix: Int32) throws(EngineError) {
        context = sws_getCachedContext(context, source.width, source.height, source.format,
                                       destination.width, destination.height, destination.format,
                                       SWS_BICUBIC, nil, nil, nil)
        guard let context else {
            throw EngineError(operation: "converting pixels", message: "libswscale cannot convert "
                + "\(Self.name(source.format)) \(source.width)x\(source.height) to "
                + "\(Self.name(destination.format)) \(destination.width)x\(destination.height)")
        }
        if appliedColor?.context != context || appliedColor?.matrix != matrix
            || appliedColor?.sourceFull != source.fullRange || appliedColor?.destinationFull != destination.fullRange {
            let coefficients = sws_getCoefficients(matrix)
            sws_setColorspaceDetails(context, coefficients, source.fullRange ? 1 : 0,
                                     coefficients, destination.fullRange ? 1 : 0, 0, 1 << 16, 1 << 16)
            appliedColor = (context, matrix, source.fullRange, destination.fullRange)
        }
        // libswscale reads four plane pointers and strides on each side (a same-format copy
        // copies every non-null one), so the unused ones must be null.
        let (sourcePlanes, sourceStrides) = Self.fourPlanes(source)
        let (destinationPlanes, destinationStrides) = Self.fourPlanes(destination)
        let rows = sourcePlanes.withUnsafeBufferPointer { sourcePlanes in
            sourceStrides.withUnsafeBufferPointer { sourceStrides in
                destinationPlanes.withUnsafeBufferPointer { destinationPlanes in
                    destinationStrides.withUnsafeBufferPointer { destinationStrides in
                        sourcePlanes.baseAddress!.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: sourcePlanes.count) {
                            sws_scale(context, $0, sourceStrides.baseAddress, 0, source.height,
                                      destinationPlanes.baseAddress, destinationStrides.baseAddress)
                        }
                    }
                }
            }
        }
        if rows <= 0 { try ffmpegCheck(rows < 0 ? rows : cffmpeg_averror(EINVAL), "converting pixels") }
    }

    /// An image's plane pointers and strides padded with null and 0 to the four libswscale reads.
    private static func fourPlanes(_ image: Image) -> ([UnsafeMutablePointer<UInt8>?], [Int32]) {
        let padding = max(0, 4 - image.planes.count)
        return (image.planes + Array(repeating: nil, count: padding), image.strides + Array(repeating: 0, count: padding))
    }

    /// Converts a decoded frame into a pixel buffer of any supported format and size.
    package func convert(_ frame: Frame, into destination: CVPixelBuffer) throws(EngineError) {
        let source = try Self.image(of: frame)
        try convert(source, into: try Self.image(of: destination), matrix: Self.matrix(of: frame))
    }

    /// Converts a pixel buffer into an allocated frame of any FFmpeg format and size (the
    /// frame's `format`, `width`, `height` and buffers set), for encoders.
    package func convert(_ source: CVPixelBuffer, into frame: Frame) throws(EngineError) {
        let matrix = Self.matrix(of: source.attachmentString(kCVImageBufferYCbCrMatrixKey), height: source.height)
        try convert(try Self.image(of: source), into: try Self.image(of: frame), matrix: matrix)
    }

    /// Converts one pixel buffer into another of any supported format and size; one of the same
    /// format and size is copied plane by plane, row by row.
    package func convert(_ source: CVPixelBuffer, into destination: CVPixelBuffer) throws(EngineError) {
        if source.pixelFormatType == destination.pixelFormatType, source.width == destination.width,
           source.height == destination.height, let layout = CVPixelFormatDescription.description(for: source.pixelFormatType),
           layout.planes.count == source.planes.count, layout.planes.count == destination.planes.count {
            // libswscale's same-format "copy" garbles NV12's interleaved chroma plane.
            for (index, plane) in layout.planes.enumerated() {
                let from = source.planes[index], to = destination.planes[index]
                let rowBytes = plane.minimumBytesPerRow(forImageWidth: source.width)
                for row in 0..<min(from.height, to.height) {
                    memcpy(to.baseAddress + row * to.bytesPerRow, from.baseAddress + row * from.bytesPerRow, rowBytes)
                }
            }
            return
        }
        let matrix = Self.matrix(of: source.attachmentString(kCVImageBufferYCbCrMatrixKey), height: source.height)
        try convert(try Self.image(of: source), into: try Self.image(of: destination), matrix: matrix)
    }

    /// Copies a 32-bit packed pixel buffer (such as BGRA) into `destination` turned by a
    /// quarter-turn transform (`a`, `b`, `c`, `d` each -1, 0 or 1, as in a track's preferred
    /// transform): rotations by multiples of 90° and mirrorings. `destination` must have the
    /// transformed size and the same pixel format.
    package func transform(_ source: CVPixelBuffer, into destination: CVPixelBuffer,
                           a: Int, b: Int, c: Int, d: Int) throws(EngineError) {
        guard source.pixelFormatType == destination.pixelFormatType,
              let layout = CVPixelFormatDescription.description(for: source.pixelFormatType),
              layout.planes.count == 1, layout.planes[0].bytesPerBlock == 4, layout.planes[0].blockWidth == 1,
              [a, b, c, d].allSatisfy({ abs($0) <= 1 }), a * d - b * c != 0
        else {
            throw EngineError(operation: "rotating pixels", message: "only quarter turns and mirrorings of 32-bit pixels are supported")
        }
        let (width, height) = (source.width, source.height)
        // Where the transformed picture starts: the minimum corner of the transformed rectangle.
        let xs = [0, a * width, c * height, a * width + c * height]
        let ys = [0, b * width, d * height, b * width + d * height]
        let (minX, minY) = (xs.min()!, ys.min()!)
        guard destination.width == xs.max()! - minX, destination.height == ys.max()! - minY else {
            throw EngineError(operation: "rotating pixels", message: "the destination has the wrong size")
        }
        // The inverse of the 2x2 matrix (its determinant is ±1).
        let determinant = a * d - b * c
        let (ia, ib, ic, id) = (d * determinant, -b * determinant, -c * determinant, a * determinant)
        let sourcePlane = source.planes[0], destinationPlane = destination.planes[0]
        for row in 0..<destination.height {
            let target = (destinationPlane.baseAddress + row * destinationPlane.bytesPerRow).assumingMemoryBound(to: UInt32.self)
            for column in 0..<destination.width {
                // Pixel centres, doubled to stay in integers.
                let px = 2 * (column + minX) + 1, py = 2 * (row + minY) + 1
                let sx = (ia * px + ic * py - 1) / 2, sy = (ib * px + id * py - 1) / 2
                let from = (sourcePlane.baseAddress + sy * sourcePlane.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                target[column] = from[sx]
            }
        }
    }

    /// The planes of a pixel buffer, as libswscale wants them.
    static func image(of buffer: CVPixelBuffer) throws(EngineError) -> Image {
        guard let (format, fullRange) = PixelFormatMapping.ffmpegFormat(for: buffer.pixelFormatType) else {
            throw EngineError(operation: "converting pixels",
                              message: "pixel format '\(buffer.pixelFormatType.fourCCString)' is not supported")
        }
        return Image(format: format, width: Int32(buffer.width), height: Int32(buffer.height), fullRange: fullRange,
                     planes: buffer.planes.map { $0.baseAddress.assumingMemoryBound(to: UInt8.self) },
                     strides: buffer.planes.map { Int32($0.bytesPerRow) })
    }

    /// The planes of a decoded frame, as libswscale wants them.
    static func image(of frame: Frame) throws(EngineError) -> Image {
        let f = frame.pointer.pointee
        let format = AVPixelFormat(rawValue: f.format)
        guard format != AV_PIX_FMT_NONE else {
            throw EngineError(operation: "converting pixels", message: "the frame has no pixel format")
        }
        let planeCount = Int(av_pix_fmt_count_planes(format))
        let planes = withUnsafeBytes(of: f.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).prefix(planeCount)) }
        let strides = withUnsafeBytes(of: f.linesize) { Array($0.bindMemory(to: Int32.self).prefix(planeCount)) }
        return Image(format: format, width: f.width, height: f.height,
                     fullRange: f.color_range == AVCOL_RANGE_JPEG || format == AV_PIX_FMT_YUVJ420P,
                     planes: planes, strides: strides)
    }

    /// The `SWS_CS_*` matrix of a frame's colour space (BT.601 for SD, BT.709 for HD when unset).
    static func matrix(of frame: Frame) -> Int32 {
        let f = frame.pointer.pointee
        switch f.colorspace {
        case AVCOL_SPC_BT709: return SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020
        case AVCOL_SPC_SMPTE170M, AVCOL_SPC_BT470BG: return SWS_CS_ITU601
        default: return f.height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }

    /// The `SWS_CS_*` matrix named by a CoreVideo Y'CbCr matrix attachment (by size when unset).
    static func matrix(of attachment: String?, height: Int) -> Int32 {
        switch attachment {
        case kCVImageBufferYCbCrMatrix_ITU_R_709_2: return SWS_CS_ITU709
        case kCVImageBufferYCbCrMatrix_ITU_R_601_4: return SWS_CS_ITU601
        case kCVImageBufferYCbCrMatrix_ITU_R_2020: return SWS_CS_BT2020
        case kCVImageBufferYCbCrMatrix_SMPTE_240M_1995: return SWS_CS_SMPTE240M
        default: return height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }

    /// FFmpeg's name of a pixel format, for messages.
    static func name(_ format: AVPixelFormat) -> String {
        av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
    }
}

extension CVPixelBuffer {
    /// A string attachment such as the Y'CbCr matrix, or nil.
    package func attachmentString(_ key: CFString) -> String? {
        CVBufferCopyAttachment(self, key, nil) as? String
    }
}
