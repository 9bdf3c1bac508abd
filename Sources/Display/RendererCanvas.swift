import CSDL2
import Foundation
import MediaEngine
import OpenCoreVideo

/// Draws through an SDL renderer: each picture goes up as a texture in its own format (NV12,
/// I420, YUYV, UYVY or BGRA), and the GPU converts, scales, turns and mirrors it. A picture much
/// larger than its place is first scaled down (bicubic, by the one `PixelConverter`): a GPU's
/// bilinear sampling alone would skip pixels and alias.
final class RendererCanvas: WindowCanvas {
    /// A texture and what it was made for.
    private struct Texture {
        let texture: OpaquePointer
        let format: OSType
        let width: Int, height: Int
        let mode: SDL_YUV_CONVERSION_MODE
    }

    private let renderer: OpaquePointer
    private var textures: [Texture?] = []
    /// Per picture slot: the last picture scaled down, and what it was made from.
    private var shrunk: [(source: CVPixelBuffer, picture: CVPixelBuffer)?] = []
    private let converter = PixelConverter()
    private let pools = PixelBufferPools(capacity: 2)

    /// A canvas drawing in `window` through a new renderer; nil, with SDL's error, when none can
    /// be made.
    init(window: OpaquePointer) throws(DisplayError) {
        guard let renderer = SDL_CreateRenderer(window, -1, 0) else {
            throw DisplayError("cannot draw in a window: \(String(cString: SDL_GetError()))")
        }
        self.renderer = renderer
    }

    var pixelSize: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        return (Int(width), Int(height))
    }

    func draw(_ pictures: [VideoWindow.Picture]) {
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        for (index, picture) in pictures.enumerated() {
            let buffer = shrunkPicture(index, picture)
            let mode = Self.conversionMode(buffer, source: picture.buffer)
            guard let texture = texture(index, for: buffer, mode: mode) else { continue }
            upload(buffer, to: texture)
            // SDL turns the target about its centre: before turning, a quarter-turned picture
            // has the rectangle's width and height swapped.
            var target = picture.rect.sdl, clip = picture.clip.sdl
            if picture.quarterTurns % 2 == 1 {
                target = SDL_Rect(x: target.x + (target.w - target.h) / 2, y: target.y + (target.h - target.w) / 2, w: target.h, h: target.w)
            }
            SDL_RenderSetClipRect(renderer, &clip)
            // The conversion is one setting for the whole process, read when SDL draws: each
            // picture is drawn at once with its own.
            SDL_SetYUVConversionMode(mode)
            SDL_RenderCopyEx(renderer, texture, nil, &target, Double(picture.quarterTurns) * 90, nil,
                             picture.mirrored ? SDL_FLIP_HORIZONTAL : SDL_FLIP_NONE)
            SDL_RenderFlush(renderer)
        }
        SDL_RenderSetClipRect(renderer, nil)
        SDL_RenderPresent(renderer)
    }

    func destroy() {
        for texture in textures.compactMap({ $0 }) { SDL_DestroyTexture(texture.texture) }
        textures = []
        shrunk = []
        SDL_DestroyRenderer(renderer)
    }

    /// The picture to draw in slot `index`: its buffer, or, when that is more than a quarter
    /// larger than its place on either side, the buffer scaled down to the place (NV12 for YUV,
    /// BGRA for BGRA), once per picture.
    private func shrunkPicture(_ index: Int, _ picture: VideoWindow.Picture) -> CVPixelBuffer {
        let buffer = picture.buffer
        let turned = picture.quarterTurns % 2 == 1
        let width = turned ? picture.rect.height : picture.rect.width, height = turned ? picture.rect.width : picture.rect.height
        let sourceWidth = CVPixelBufferGetWidth(buffer), sourceHeight = CVPixelBufferGetHeight(buffer)
        while shrunk.count <= index { shrunk.append(nil) }
        guard width > 1, height > 1, sourceWidth * 4 > width * 5 || sourceHeight * 4 > height * 5 else {
            shrunk[index] = nil
            return buffer
        }
        if let done = shrunk[index], done.source === buffer,
           CVPixelBufferGetWidth(done.picture) == (width + 1) & ~1, CVPixelBufferGetHeight(done.picture) == (height + 1) & ~1 {
            return done.picture
        }
        let format = CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA
            ? kCVPixelFormatType_32BGRA : kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        guard let small = pools.buffer(pixelFormat: format, width: (width + 1) & ~1, height: (height + 1) & ~1),
              (try? converter.convert(buffer, into: small)) != nil else { return buffer }
        shrunk[index] = (buffer, small)
        return small
    }

    /// The texture in slot `index`, made again when the picture's format, size or conversion
    /// changed.
    private func texture(_ index: Int, for buffer: CVPixelBuffer, mode: SDL_YUV_CONVERSION_MODE) -> OpaquePointer? {
        let format = CVPixelBufferGetPixelFormatType(buffer)
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        while textures.count <= index { textures.append(nil) }
        if let existing = textures[index] {
            if existing.format == format && existing.width == width && existing.height == height && existing.mode == mode {
                return existing.texture
            }
            SDL_DestroyTexture(existing.texture)
            textures[index] = nil
        }
        let sdlFormat: UInt32
        switch format {
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
            sdlFormat = SDL_PIXELFORMAT_NV12.rawValue
        case kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_420YpCbCr8PlanarFullRange:
            sdlFormat = SDL_PIXELFORMAT_IYUV.rawValue
        case kCVPixelFormatType_32BGRA:
            sdlFormat = SDL_PIXELFORMAT_ARGB8888.rawValue
        case kCVPixelFormatType_422YpCbCr8_yuvs:
            sdlFormat = SDL_PIXELFORMAT_YUY2.rawValue
        case kCVPixelFormatType_422YpCbCr8:
            sdlFormat = SDL_PIXELFORMAT_UYVY.rawValue
        default:
            return nil
        }
        SDL_SetYUVConversionMode(mode)
        guard let texture = SDL_CreateTexture(renderer, sdlFormat, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(width), Int32(height)) else {
            return nil
        }
        textures[index] = Texture(texture: texture, format: format, width: width, height: height, mode: mode)
        return texture
    }

    /// SDL's YUV-to-RGB conversion for `buffer`, drawn for the picture `source` (itself, or the
    /// picture it was scaled down from): full range as JPEG does; else the matrix the source's
    /// attachments name, else BT.709 for a source of 720 lines or more and BT.601 below (as the
    /// `PixelConverter` guesses for untagged video).
    private static func conversionMode(_ buffer: CVPixelBuffer, source: CVPixelBuffer) -> SDL_YUV_CONVERSION_MODE {
        let format = CVPixelBufferGetPixelFormatType(buffer)
        if format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange || format == kCVPixelFormatType_420YpCbCr8PlanarFullRange {
            return SDL_YUV_CONVERSION_JPEG
        }
        switch CVBufferCopyAttachment(source, kCVImageBufferYCbCrMatrixKey as CFString, nil) as? String {
        case kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String: return SDL_YUV_CONVERSION_BT709
        case kCVImageBufferYCbCrMatrix_ITU_R_601_4 as String: return SDL_YUV_CONVERSION_BT601
        default: return CVPixelBufferGetHeight(source) >= 720 ? SDL_YUV_CONVERSION_BT709 : SDL_YUV_CONVERSION_BT601
        }
    }

    /// Copies a picture's planes into its texture.
    private func upload(_ buffer: CVPixelBuffer, to texture: OpaquePointer) {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        func plane(_ index: Int) -> (UnsafePointer<UInt8>?, Int32) {
            (CVPixelBufferGetBaseAddressOfPlane(buffer, index).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) },
             Int32(CVPixelBufferGetBytesPerRowOfPlane(buffer, index)))
        }
        switch CVPixelBufferGetPlaneCount(buffer) {
        case 2:
            let (y, yPitch) = plane(0), (uv, uvPitch) = plane(1)
            SDL_UpdateNVTexture(texture, nil, y, yPitch, uv, uvPitch)
        case 3:
            let (y, yPitch) = plane(0), (u, uPitch) = plane(1), (v, vPitch) = plane(2)
            SDL_UpdateYUVTexture(texture, nil, y, yPitch, u, uPitch, v, vPitch)
        default:
            SDL_UpdateTexture(texture, nil, CVPixelBufferGetBaseAddress(buffer), Int32(CVPixelBufferGetBytesPerRow(buffer)))
        }
    }
}
