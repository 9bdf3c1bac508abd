import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// What the Test Pattern Camera's controls do to its picture, the way a camera's would: zoom
/// crops the centre and scales it up, a lens away from the in-focus position blurs, exposure
/// (duration times ISO), the torch and the white balance gains scale the colour channels.
///
/// Applied to a frame before its frame index barcode is drawn, so the barcode always reads.
/// Scaling and blurring go through the shared `PixelConverter` into pooled buffers; the tone
/// is one pass over the pixels (lookup tables for BGRA; for 4:2:0, the same per-channel gains
/// worked out on luma and chroma). Used by the camera's thread only.
final class TestPatternEffects {
    /// How much the torch adds at full level (1 + this, times the scene's light).
    static let torchBoost: Float = 0.6
    /// Blur radius, in pixels per unit of lens distance from focus per pixel of picture width.
    static let blurPerLensUnit = 1.0 / 24

    let format: CaptureVideoFormat
    private let neutralGains: CaptureWhiteBalanceGains
    private let zoomConverter = PixelConverter()
    private let blurDownConverter = PixelConverter()
    private let blurUpConverter = PixelConverter()
    /// The zoomed picture before it is copied back, and the small picture of a blur.
    private let pools = PixelBufferPools(capacity: 2)

    init(format: CaptureVideoFormat, neutralGains: CaptureWhiteBalanceGains) {
        self.format = format
        self.neutralGains = neutralGains
    }

    /// Changes `buffer` as the controls' state says.
    func apply(_ state: CaptureControlState, to buffer: CVPixelBuffer) {
        if state.zoomFactor > 1.0001 { zoom(buffer, by: state.zoomFactor) }
        let defocus = Double(abs(state.lensPosition - VirtualCameraControls.inFocusLensPosition))
        let radius = (defocus * Self.blurPerLensUnit * Double(format.width)).rounded()
        if radius >= 2 { blur(buffer, radius: Int(radius)) }
        let exposure = Float(state.exposureDuration.seconds) * state.iso
            / (Float(VirtualCameraControls.nominalExposure.duration.seconds) * VirtualCameraControls.nominalExposure.iso)
        let light = exposure * (1 + Self.torchBoost * state.torchLevel)
        let gains = (red: light * state.whiteBalanceGains.red / neutralGains.red,
                     green: light * state.whiteBalanceGains.green / neutralGains.green,
                     blue: light * state.whiteBalanceGains.blue / neutralGains.blue)
        if [gains.red, gains.green, gains.blue].contains(where: { abs($0 - 1) > 0.002 }) { tone(buffer, gains) }
    }

    /// Scales the centre `1/factor` of the picture up to the whole picture.
    private func zoom(_ buffer: CVPixelBuffer, by factor: Double) {
        let width = max(2, Int(Double(format.width) / factor) & ~1)
        let height = max(2, Int(Double(format.height) / factor) & ~1)
        guard let centre = buffer.region(x: (format.width - width) / 2 & ~1, y: (format.height - height) / 2 & ~1,
                                         width: width, height: height),
              let zoomed = pools.buffer(pixelFormat: format.pixelFormat, width: format.width, height: format.height),
              (try? zoomConverter.convert(centre, into: zoomed)) != nil else { return }
        for (from, to) in zip(zoomed.planes, buffer.planes) {
            for row in 0..<to.height {
                memcpy(to.baseAddress + row * to.bytesPerRow, from.baseAddress + row * from.bytesPerRow,
                       min(from.bytesPerRow, to.bytesPerRow))
            }
        }
    }

    /// Blurs by scaling down by `radius` and back up.
    private func blur(_ buffer: CVPixelBuffer, radius: Int) {
        let width = max(2, format.width / radius & ~1), height = max(2, format.height / radius & ~1)
        guard let small = pools.buffer(pixelFormat: format.pixelFormat, width: width, height: height),
              (try? blurDownConverter.convert(buffer, into: small)) != nil else { return }
        try? blurUpConverter.convert(small, into: buffer)
    }

    /// Multiplies the red, green and blue of every pixel by the gains (clipped to white).
    private func tone(_ buffer: CVPixelBuffer, _ gains: (red: Float, green: Float, blue: Float)) {
        if format.pixelFormat == kCVPixelFormatType_32BGRA {
            toneBGRA(buffer.planes[0], gains)
        } else {
            toneYCbCr(luma: buffer.planes[0], chroma: buffer.planes[1], gains,
                      fullRange: format.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
        }
    }

    private func toneBGRA(_ plane: CVPixelBufferPlane, _ gains: (red: Float, green: Float, blue: Float)) {
        func table(_ gain: Float) -> [UInt8] { (0..<256).map { UInt8(min(255, (Float($0) * gain).rounded())) } }
        let (blue, green, red) = (table(gains.blue), table(gains.green), table(gains.red))
        for row in 0..<plane.height {
            let pixels = (plane.baseAddress + row * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in stride(from: 0, to: plane.width * 4, by: 4) {
                pixels[x] = blue[Int(pixels[x])]
                pixels[x + 1] = green[Int(pixels[x + 1])]
                pixels[x + 2] = red[Int(pixels[x + 2])]
            }
        }
    }

    /// The gains on BT.709 Y'CbCr: with Y' = wr·R + wg·G + wb·B, Cb = (B - Y')/1.8556 and
    /// Cr = (R - Y')/1.5748, scaling R, G and B gives
    /// Y'' = gy·Y' + wr(gr-gg)·1.5748·Cr + wb(gb-gg)·1.8556·Cb (gy the weighted gain), and
    /// Cb'' = gb·Cb + ((gb-gy)·Y' - (Y''-gy·Y'))/1.8556, Cr'' alike; per 2x2 block, with the
    /// block's mean luma for the chroma.
    private func toneYCbCr(luma: CVPixelBufferPlane, chroma: CVPixelBufferPlane,
                           _ gains: (red: Float, green: Float, blue: Float), fullRange: Bool) {
        let (wr, wg, wb): (Float, Float, Float) = (0.2126, 0.7152, 0.0722)
        let gy = wr * gains.red + wg * gains.green + wb * gains.blue
        let (black, lumaScale, chromaScale): (Float, Float, Float) = fullRange ? (0, 255, 255) : (16, 219, 224)
        let crToLuma = wr * (gains.red - gains.green) * 1.5748 * lumaScale / chromaScale
        let cbToLuma = wb * (gains.blue - gains.green) * 1.8556 * lumaScale / chromaScale
        let lumaTable = (0..<256).map { gy * (Float($0) - black) + black }
        let lumaInChroma = chromaScale / lumaScale
        for cy in 0..<chroma.height {
            let top = (luma.baseAddress + 2 * cy * luma.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            let bottom = top + luma.bytesPerRow
            let samples = (chroma.baseAddress + cy * chroma.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for cx in 0..<chroma.width {
                let x = 2 * cx
                let cb = Float(samples[2 * cx]) - 128, cr = Float(samples[2 * cx + 1]) - 128
                // The luma every pixel of the block gains from the block's colour, in luma steps.
                let offset = crToLuma * cr + cbToLuma * cb
                let meanLuma = (Float(top[x]) + Float(top[x + 1]) + Float(bottom[x]) + Float(bottom[x + 1])) / 4 - black
                func shade(_ pointer: UnsafeMutablePointer<UInt8>) {
                    pointer.pointee = UInt8(min(255, max(0, (lumaTable[Int(pointer.pointee)] + offset).rounded())))
                }
                shade(top + x)
                shade(top + x + 1)
                shade(bottom + x)
                shade(bottom + x + 1)
                // In chroma steps: the luma terms scaled from luma to chroma steps.
                let newCb = gains.blue * cb + ((gains.blue - gy) * meanLuma - offset) * lumaInChroma / 1.8556
                let newCr = gains.red * cr + ((gains.red - gy) * meanLuma - offset) * lumaInChroma / 1.5748
                samples[2 * cx] = UInt8(min(255, max(0, (128 + newCb).rounded())))
                samples[2 * cx + 1] = UInt8(min(255, max(0, (128 + newCr).rounded())))
            }
        }
    }
}
