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
    private var appliedColor: (context: OpaquePointer, sourceMatrix: Int32, destinationMatrix: Int32, sourceFull: Bool,
                               destinationFull: Bool)?

    /// A converter with no scaler yet.
    package init() {
        _ = FFmpegLog.install
    }

    deinit {
        sws_freeContext(context)
    }

    /// Converts (and scales, when the sizes differ) `source` into `destination`. The matrices
    /// are each side's Y'CbCr matrix (`SWS_CS_*` values; libswscale ignores the one of an RGB
    /// side). Same format, size, range and matrix is a plain plane copy (`av_image_copy`):
    /// libswscale's own copy fills the chroma of two-plane formats such as NV12 with grey.
    func convert(_ source: Image, into destination: Image, sourceMatrix: Int32, destinationMatrix: Int32) throws(EngineError) {
        // FFmpeg reads four plane pointers and strides on each side: pad with nulls.
        var sourcePlanes = source.planes.map { UnsafePointer<UInt8>($0) } + Array(repeating: nil, count: max(0, 4 - source.planes.count))
        var sourceStrides = source.strides + Array(repeating: 0, count: max(0, 4 - source.strides.count))
        var destinationPlanes = destination.planes + Array(repeating: nil, count: max(0, 4 - destination.planes.count))
        var destinationStrides = destination.strides + Array(repeating: 0, count: max(0, 4 - destination.strides.count))
        if source.format == destination.format, source.width == destination.width, source.height == destination.height,
           source.fullRange == destination.fullRange, sourceMatrix == destinationMatrix {
            av_image_copy(&destinationPlanes, &destinationStrides, &sourcePlanes, sourceStrides, source.format,
                          source.width, source.height)
            return
        }
        context = sws_getCachedContext(context, source.width, source.height, source.format,
                                       destination.width, destination.height, destination.format,
                                       SWS_BICUBIC, nil, nil, nil)
        guard let context else {
            throw EngineError(operation: "converting pixels", message: "libswscale cannot convert "
                + "\(Self.name(source.format)) \(source.width)x\(source.height) to "
                + "\(Self.name(destination.format)) \(destination.width)x\(destination.height)")
        }
        let applying = (context, sourceMatrix, destinationMatrix, source.fullRange, destination.fullRange)
        if appliedColor.map({ $0 != applying }) ?? true {
            sws_setColorspaceDetails(context, sws_getCoefficients(sourceMatrix), source.fullRange ? 1 : 0,
                                     sws_getCoefficients(destinationMatrix), destination.fullRange ? 1 : 0, 0, 1 << 16, 1 << 16)
            appliedColor = applying
        }
        let rows = sws_scale(context, &sourcePlanes, &sourceStrides, 0, source.height, &destinationPlanes, &destinationStrides)
        if rows <= 0 { try ffmpegCheck(rows < 0 ? rows : cffmpeg_averror(EINVAL), "converting pixels") }
    }

    /// Converts a decoded frame into a pixel buffer of any supported format and size, which
    /// gets the frame's colour as its attachments.
    package func convert(_ frame: Frame, into destination: CVPixelBuffer) throws(EngineError) {
        let source = try Self.image(of: frame)
        let matrix = Self.matrix(of: frame)
        try convert(source, into: try Self.image(of: destination), sourceMatrix: matrix, destinationMatrix: matrix)
        ColorDescription(of: frame).attach(to: destination)
    }

    /// Converts a pixel buffer into an allocated frame of any FFmpeg format and size (the
    /// frame's `format`, `width`, `height` and buffers set), for encoders: into the frame's
    /// Y'CbCr matrix when its colour space says one, else the buffer's.
    package func convert(_ source: CVPixelBuffer, into frame: Frame) throws(EngineError) {
        let sourceMatrix = Self.matrix(of: source)
        let destinationMatrix = frame.pointer.pointee.colorspace == AVCOL_SPC_UNSPECIFIED ? sourceMatrix : Self.matrix(of: frame)
        try convert(try Self.image(of: source), into: try Self.image(of: frame), sourceMatrix: sourceMatrix,
                    destinationMatrix: destinationMatrix)
    }

    /// Converts one pixel buffer into another of any supported format and size (one of the same
    /// format, size, range and matrix is copied): into the Y'CbCr matrix named by
    /// `destinationMatrix` (a `kCVImageBufferYCbCrMatrix_…` value) when given, else the source's.
    package func convert(_ source: CVPixelBuffer, into destination: CVPixelBuffer, destinationMatrix name: String? = nil) throws(EngineError) {
        let sourceMatrix = Self.matrix(of: source)
        let destinationMatrix = name.map { Self.matrix(of: $0, height: destination.height) } ?? sourceMatrix
        try convert(try Self.image(of: source), into: try Self.image(of: destination), sourceMatrix: sourceMatrix,
                    destinationMatrix: destinationMatrix)
    }

    /// Copies `source` into `destination` turned by quarter turns and mirrored: 32-bit packed
    /// pixels (such as BGRA) and bi-planar 4:2:0 ('420v', '420f': the luma plane and the
    /// interleaved chroma plane each turned as a whole). `destination` must have the turned size
    /// and the same pixel format. Pixels are moved, never resampled: the result is exact.
    package func transform(_ source: CVPixelBuffer, into destination: CVPixelBuffer, _ turn: QuarterTurn) throws(EngineError) {
        guard source.pixelFormatType == destination.pixelFormatType,
              let layout = CVPixelFormatDescription.description(for: source.pixelFormatType),
              layout.planes.allSatisfy({ plane in
                  plane.blockWidth == 1 && plane.horizontalSubsampling == plane.verticalSubsampling
                      && [1, 2, 4].contains(plane.bytesPerBlock)
              }),
              source.planes.count == layout.planes.count, destination.planes.count == layout.planes.count
        else {
            throw EngineError(operation: "turning pixels",
                              message: "'\(source.pixelFormatType.fourCCString)' pictures cannot be turned (32-bit packed and bi-planar 4:2:0 can)")
        }
        guard (destination.width, destination.height) == turn.size(width: source.width, height: source.height) else {
            throw EngineError(operation: "turning pixels", message: "the destination has the wrong size")
        }
        for (index, plane) in layout.planes.enumerated() {
            let from = source.planes[index], to = destination.planes[index]
            switch plane.bytesPerBlock {
            case 1: Self.turn(from, into: to, turn, as: UInt8.self)
            case 2: Self.turn(from, into: to, turn, as: UInt16.self)
            default: Self.turn(from, into: to, turn, as: UInt32.self)
            }
        }
    }

    /// Turns one plane whose samples are `Sample`s: each destination row is read along a line
    /// of the source with a constant step.
    private static func turn<Sample>(_ source: CVPixelBufferPlane, into destination: CVPixelBufferPlane,
                                     _ turn: QuarterTurn, as: Sample.Type) {
        let (a, b, c, d) = (turn.a, turn.b, turn.c, turn.d)
        // Where the turned plane starts: the minimum corner of the turned rectangle.
        let minX = min(0, a * source.width) + min(0, c * source.height)
        let minY = min(0, b * source.width) + min(0, d * source.height)
        // The inverse matrix (the determinant is ±1).
        let determinant = a * d - b * c
        let (ia, ib, ic, id) = (d * determinant, -b * determinant, -c * determinant, a * determinant)
        let size = MemoryLayout<Sample>.stride
        // One destination column to the right moves the source position by (ia, ib).
        let step = ia * size + ib * source.bytesPerRow
        for row in 0..<destination.height {
            // The source sample of column 0 (pixel centres doubled to stay in integers).
            let px = 2 * minX + 1, py = 2 * (row + minY) + 1
            let sx = (ia * px + ic * py - 1) / 2, sy = (ib * px + id * py - 1) / 2
            var from = source.baseAddress + sy * source.bytesPerRow + sx * size
            let target = (destination.baseAddress + row * destination.bytesPerRow).assumingMemoryBound(to: Sample.self)
            for column in 0..<destination.width {
                target[column] = from.load(as: Sample.self)
                from += step
            }
        }
    }

    /// Converts and scales `source` into `destination` and turns it, in as few passes as
    /// possible: only the turn when format and size already match, only libswscale when there is
    /// no turn, else libswscale into `intermediate(width, height)` (the destination's format,
    /// the size before the turn) and the turn from there.
    package func convert(_ source: CVPixelBuffer, into destination: CVPixelBuffer, turning turn: QuarterTurn,
                         intermediate: (_ width: Int, _ height: Int) -> CVPixelBuffer?) throws(EngineError) {
        if turn.isIdentity { return try convert(source, into: destination) }
        let (width, height) = turn.size(width: destination.width, height: destination.height)
        if source.pixelFormatType == destination.pixelFormatType && (source.width, source.height) == (width, height) {
            return try transform(source, into: destination, turn)
        }
        guard let unturned = intermediate(width, height) else {
            throw EngineError(operation: "turning pixels", message: "no buffer for the \(width)x\(height) picture before turning")
        }
        try convert(source, into: unturned)
        try transform(unturned, into: destination, turn)
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

    /// The `SWS_CS_*` matrix named by a pixel buffer's Y'CbCr matrix attachment (by size when unset).
    static func matrix(of buffer: CVPixelBuffer) -> Int32 {
        matrix(of: buffer.attachmentString(kCVImageBufferYCbCrMatrixKey), height: buffer.height)
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
