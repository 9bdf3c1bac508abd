import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// Draws the Test Pattern Camera's frames for one video format into pooled pixel buffers.
///
/// Per format, once: the background (75% colour bars over the top two thirds, a black-to-white
/// ramp below) is computed into a buffer laid out exactly as the pool's, and each solid colour
/// used later is prepared as one row per plane. Per frame: the background (`memcpy` per plane),
/// or white for a flash frame, then the moving square, by copies of whole rows; then what the
/// controls do (`TestPatternEffects`, nothing at the default settings); last the
/// `FrameIndexBarcode`, and the `FrameIndexQRCode` when asked for. Used by one thread at a time.
final class TestPatternRenderer: @unchecked Sendable {
    let format: CaptureVideoFormat
    private let pool: DeviceFramePool
    private let background: CVPixelBuffer
    private let geometry: [PlaneGeometry]
    private let white: SolidColor
    private let square: SolidColor
    private let effects: TestPatternEffects
    /// Nil for pictures too small to show it.
    private let qrCode: FrameIndexQRCode?

    /// How one plane maps pixels to bytes: chroma subsampling shifts and bytes per sample.
    struct PlaneGeometry {
        var xShift: Int
        var yShift: Int
        var bytesPerSample: Int
    }

    /// One row of a colour per plane, a full plane row wide.
    final class SolidColor {
        let rows: [UnsafeMutableRawPointer]
        init(rows: [UnsafeMutableRawPointer]) { self.rows = rows }
        deinit { rows.forEach { $0.deallocate() } }
    }

    /// A renderer for a format the camera offers, for a scene whose light `neutralGains` make
    /// neutral; throws when the pool cannot be made.
    init(format: CaptureVideoFormat, neutralGains: CaptureWhiteBalanceGains) throws(CaptureDeviceError) {
        self.format = format
        effects = TestPatternEffects(format: format, neutralGains: neutralGains)
        qrCode = FrameIndexQRCode(format: format)
        let isYCbCr = format.pixelFormat != kCVPixelFormatType_32BGRA
        let colour: [String: Any] = isYCbCr ? [
            kCVImageBufferYCbCrMatrixKey: kCVImageBufferYCbCrMatrix_ITU_R_709_2,
            kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_ITU_R_709_2,
            kCVImageBufferTransferFunctionKey: kCVImageBufferTransferFunction_ITU_R_709_2,
        ] : [:]
        pool = try DeviceFramePool(pixelFormat: format.pixelFormat, width: format.width, height: format.height,
                                   attachments: colour)
        // Laid out as the pool's buffers (same format and size), for one copy per plane.
        var backgroundBuffer: CVPixelBuffer?
        CVPixelBufferCreate(nil, format.width, format.height, format.pixelFormat, nil, &backgroundBuffer)
        guard let backgroundBuffer else { throw CaptureDeviceError(.unavailable, "cannot allocate a \(format) pixel buffer") }
        background = backgroundBuffer
        geometry = isYCbCr
            ? [PlaneGeometry(xShift: 0, yShift: 0, bytesPerSample: 1), PlaneGeometry(xShift: 1, yShift: 1, bytesPerSample: 2)]
            : [PlaneGeometry(xShift: 0, yShift: 0, bytesPerSample: 4)]
        white = Self.solid(format: format, geometry: geometry, r: 255, g: 255, b: 255)
        square = Self.solid(format: format, geometry: geometry, r: MovingSquare.level, g: MovingSquare.level, b: MovingSquare.level)
        drawBackground()
    }

    /// A frame from the pool showing what `controls` do to the picture, with the QR code of
    /// `index` when `showsQRCode`, or nil when the client holds every buffer the pool allows.
    func makeFrame(index: UInt64, time: CMTime, isFlash: Bool, controls: CaptureControlState,
                   showsQRCode: Bool) -> CVPixelBuffer? {
        guard let buffer = pool.makeBuffer() else { return nil }
        if isFlash {
            fill(buffer, x: 0, y: 0, width: format.width, height: format.height, color: white)
        } else {
            for plane in geometry.indices {
                memcpy(baseAddress(buffer, plane), baseAddress(background, plane), planeByteCount(background, plane))
            }
        }
        if !isFlash { drawMovingSquare(into: buffer, time: time) }
        effects.apply(controls, to: buffer)
        FrameIndexBarcode.draw(index: Int(truncatingIfNeeded: index), into: buffer)
        if showsQRCode { qrCode?.draw(index: index, into: buffer) }
        return buffer
    }

    /// The `MovingSquare` at the frame's host time, below the barcode band.
    private func drawMovingSquare(into buffer: CVPixelBuffer, time: CMTime) {
        let side = MovingSquare.side(forHeight: format.height)
        guard side >= 2, format.width > side else { return }
        let (x, y) = MovingSquare.origin(at: time, width: format.width, height: format.height)
        fill(buffer, x: x, y: y, width: side, height: side, color: square)
    }

    // MARK: Drawing helpers

    private func baseAddress(_ buffer: CVPixelBuffer, _ plane: Int) -> UnsafeMutableRawPointer {
        geometry.count == 1 ? CVPixelBufferGetBaseAddress(buffer)! : CVPixelBufferGetBaseAddressOfPlane(buffer, plane)!
    }

    private func bytesPerRow(_ buffer: CVPixelBuffer, _ plane: Int) -> Int {
        geometry.count == 1 ? CVPixelBufferGetBytesPerRow(buffer) : CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
    }

    private func planeByteCount(_ buffer: CVPixelBuffer, _ plane: Int) -> Int {
        let rows = geometry.count == 1 ? CVPixelBufferGetHeight(buffer) : CVPixelBufferGetHeightOfPlane(buffer, plane)
        return rows * bytesPerRow(buffer, plane)
    }

    /// Fills a rectangle (even origin and size for 4:2:0) with a solid colour, row by row.
    private func fill(_ buffer: CVPixelBuffer, x: Int, y: Int, width: Int, height: Int, color: SolidColor) {
        for (plane, shape) in geometry.enumerated() {
            let base = baseAddress(buffer, plane)
            let stride = bytesPerRow(buffer, plane)
            let offset = (x >> shape.xShift) * shape.bytesPerSample
            let count = (width >> shape.xShift) * shape.bytesPerSample
            for row in (y >> shape.yShift)..<((y + height) >> shape.yShift) {
                memcpy(base + row * stride + offset, color.rows[plane], count)
            }
        }
    }

    /// Computes the background once: 75% bars (white, yellow, cyan, green, magenta, red, blue)
    /// over the top two thirds, a ramp from black to white across the bottom third.
    private func drawBackground() {
        let bars: [(UInt8, UInt8, UInt8)] = [
            (191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0), (191, 0, 191), (191, 0, 0), (0, 0, 191),
        ]
        let width = format.width
        let barRows = format.height * 2 / 3 & ~1
        // One RGB row for each part, converted to the pixel format and repeated down the picture.
        var barRow = [(UInt8, UInt8, UInt8)](repeating: (0, 0, 0), count: width)
        var rampRow = barRow
        for x in 0..<width {
            barRow[x] = bars[x * bars.count / width]
            let level = UInt8(x * 255 / max(1, width - 1))
            rampRow[x] = (level, level, level)
        }
        let barColor = Self.rows(from: barRow, format: format, geometry: geometry)
        let rampColor = Self.rows(from: rampRow, format: format, geometry: geometry)
        fill(background, x: 0, y: 0, width: width, height: barRows, color: barColor)
        fill(background, x: 0, y: barRows, width: width, height: format.height - barRows, color: rampColor)
    }

    /// One colour as a full row per plane.
    private static func solid(format: CaptureVideoFormat, geometry: [PlaneGeometry], r: UInt8, g: UInt8, b: UInt8) -> SolidColor {
        rows(from: [(UInt8, UInt8, UInt8)](repeating: (r, g, b), count: format.width), format: format, geometry: geometry)
    }

    /// A row of RGB pixels in the format's planes (BT.709 Y'CbCr, video or full range for 4:2:0;
    /// chroma from each pair's left pixel).
    private static func rows(from rgb: [(UInt8, UInt8, UInt8)], format: CaptureVideoFormat,
                             geometry: [PlaneGeometry]) -> SolidColor {
        let width = format.width
        if format.pixelFormat == kCVPixelFormatType_32BGRA {
            let row = UnsafeMutableRawPointer.allocate(byteCount: width * 4, alignment: 64)
            let bytes = row.assumingMemoryBound(to: UInt8.self)
            for (x, (r, g, b)) in rgb.enumerated() {
                bytes[x * 4] = b
                bytes[x * 4 + 1] = g
                bytes[x * 4 + 2] = r
                bytes[x * 4 + 3] = 255
            }
            return SolidColor(rows: [row])
        }
        let fullRange = format.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        let luma = UnsafeMutableRawPointer.allocate(byteCount: width, alignment: 64)
        let chroma = UnsafeMutableRawPointer.allocate(byteCount: (width + 1) & ~1, alignment: 64)
        let y8 = luma.assumingMemoryBound(to: UInt8.self)
        let c8 = chroma.assumingMemoryBound(to: UInt8.self)
        for (x, (r8, g8, b8)) in rgb.enumerated() {
            let (r, g, b) = (Double(r8) / 255, Double(g8) / 255, Double(b8) / 255)
            let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
            let cb = (b - y) / 1.8556
            let cr = (r - y) / 1.5748
            y8[x] = clamp(fullRange ? y * 255 : 16 + y * 219)
            if x % 2 == 0 {
                c8[x] = clamp(128 + cb * (fullRange ? 255 : 224))
                c8[x + 1] = clamp(128 + cr * (fullRange ? 255 : 224))
            }
        }
        return SolidColor(rows: [luma, chroma])
    }

    private static func clamp(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }
}
