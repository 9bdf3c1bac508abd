import CSDL2
import Foundation
import MediaEngine
import OpenCoreVideo

/// Draws straight into the window's own pixels, for machines without a GPU (a server's Xvfb, a
/// virtual machine): the one `PixelConverter` takes each picture from its format and size to the
/// window's 32-bit pixels in one pass, and SDL puts them on the screen (MIT-SHM on X11), as mpv's
/// x11 output does. Through SDL's renderer the same picture would be copied into a texture,
/// converted by Mesa's software OpenGL and copied again. A turned or mirrored picture, or one
/// the window cuts, is converted aside, turned, and copied in.
final class SurfaceCanvas: WindowCanvas {
    private let window: OpaquePointer
    private let converter = PixelConverter()
    private let pools = PixelBufferPools(capacity: 2)
    /// The window's pixels under the last rectangle drawn straight into, as a pixel buffer.
    private var view: (pixels: UnsafeMutableRawPointer, pitch: Int, rect: VideoWindow.Rect, buffer: CVPixelBuffer)?

    /// A canvas drawing into `window`'s surface; nil when its pixels are not 32-bit BGRX.
    init?(window: OpaquePointer) {
        // The window's own framebuffer (XShm on X11), not one SDL would put in a texture of its
        // (software) OpenGL renderer.
        // The format is checked before the surface is taken: a window that has one cannot have a
        // renderer.
        let format = SDL_GetWindowPixelFormat(window)
        guard format == SDL_PIXELFORMAT_RGB888.rawValue || format == SDL_PIXELFORMAT_ARGB8888.rawValue else { return nil }
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        guard let surface = SDL_GetWindowSurface(window), Self.isBGRX(surface) else { return nil }
        self.window = window
    }

    /// Whether the surface's pixels are blue, green, red and a pad byte in memory (SDL's XRGB8888
    /// or ARGB8888 on a little-endian machine): `kCVPixelFormatType_32BGRA`'s layout.
    private static func isBGRX(_ surface: UnsafeMutablePointer<SDL_Surface>) -> Bool {
        let format = surface.pointee.format.pointee.format
        return (format == SDL_PIXELFORMAT_RGB888.rawValue || format == SDL_PIXELFORMAT_ARGB8888.rawValue) && UInt16(littleEndian: 1) == 1
    }

    var pixelSize: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetWindowSizeInPixels(window, &width, &height)
        return (Int(width), Int(height))
    }

    func draw(_ pictures: [VideoWindow.Picture]) {
        // The surface is made again when the window's size changes.
        guard let surface = SDL_GetWindowSurface(window), Self.isBGRX(surface), let pixels = surface.pointee.pixels else { return }
        let bounds = VideoWindow.Rect(x: 0, y: 0, width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        let pitch = Int(surface.pointee.pitch)
        blacken(surface, around: pictures.count == 1 ? pictures[0].rect.intersection(pictures[0].clip).intersection(bounds) : nil)
        for picture in pictures {
            place(picture, in: pixels, pitch: pitch, bounds: bounds)
        }
        SDL_UpdateWindowSurface(window)
    }

    func destroy() {
        view = nil
    }

    /// Fills the surface with black, except `kept` (the one picture's place, drawn over next).
    private func blacken(_ surface: UnsafeMutablePointer<SDL_Surface>, around kept: VideoWindow.Rect?) {
        guard let kept, kept.width > 0, kept.height > 0 else {
            SDL_FillRect(surface, nil, 0)
            return
        }
        let width = Int32(surface.pointee.w), height = Int32(surface.pointee.h)
        var bars = [
            SDL_Rect(x: 0, y: 0, w: width, h: Int32(kept.y)),
            SDL_Rect(x: 0, y: Int32(kept.y + kept.height), w: width, h: height - Int32(kept.y + kept.height)),
            SDL_Rect(x: 0, y: Int32(kept.y), w: Int32(kept.x), h: Int32(kept.height)),
            SDL_Rect(x: Int32(kept.x + kept.width), y: Int32(kept.y), w: width - Int32(kept.x + kept.width), h: Int32(kept.height)),
        ].filter { $0.w > 0 && $0.h > 0 }
        if !bars.isEmpty { SDL_FillRects(surface, &bars, Int32(bars.count), 0) }
    }

    /// Converts a picture into its place: straight into the window's pixels when it is neither
    /// turned, mirrored nor cut; else aside, turned, and its visible part copied in.
    private func place(_ picture: VideoWindow.Picture, in pixels: UnsafeMutableRawPointer, pitch: Int, bounds: VideoWindow.Rect) {
        let rect = picture.rect
        let visible = rect.intersection(picture.clip).intersection(bounds)
        guard visible.width > 0, visible.height > 0 else { return }
        if picture.quarterTurns == 0 && !picture.mirrored && visible == rect {
            guard let target = view(of: pixels, pitch: pitch, rect: rect) else { return }
            try? converter.convert(picture.buffer, into: target)
            return
        }
        let turned = picture.quarterTurns % 2 == 1
        guard let scaled = pools.buffer(pixelFormat: kCVPixelFormatType_32BGRA, width: turned ? rect.height : rect.width,
                                        height: turned ? rect.width : rect.height),
              (try? converter.convert(picture.buffer, into: scaled)) != nil else { return }
        var placed = scaled
        if picture.quarterTurns != 0 || picture.mirrored {
            // Mirrored, then turned clockwise, is turned the other way, then mirrored.
            let degrees = picture.quarterTurns * 90
            guard let turnedBuffer = pools.buffer(pixelFormat: kCVPixelFormatType_32BGRA, width: rect.width, height: rect.height),
                  (try? converter.transform(scaled, into: turnedBuffer, QuarterTurn(clockwiseDegrees: picture.mirrored ? -degrees : degrees,
                                                                                    mirrored: picture.mirrored))) != nil else { return }
            placed = turnedBuffer
        }
        CVPixelBufferLockBaseAddress(placed, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(placed, .readOnly) }
        guard let source = CVPixelBufferGetBaseAddress(placed) else { return }
        let sourcePitch = CVPixelBufferGetBytesPerRow(placed)
        for row in 0..<visible.height {
            let from = source + (visible.y - rect.y + row) * sourcePitch + (visible.x - rect.x) * 4
            let to = pixels + (visible.y + row) * pitch + visible.x * 4
            to.copyMemory(from: from, byteCount: visible.width * 4)
        }
    }

    /// The window's pixels under `rect` as a BGRA pixel buffer, made again only when the surface
    /// or the rectangle changed.
    private func view(of pixels: UnsafeMutableRawPointer, pitch: Int, rect: VideoWindow.Rect) -> CVPixelBuffer? {
        if let view, view.pixels == pixels, view.pitch == pitch, view.rect == rect { return view.buffer }
        var buffer: CVPixelBuffer?
        CVPixelBufferCreateWithBytes(nil, rect.width, rect.height, kCVPixelFormatType_32BGRA, pixels + rect.y * pitch + rect.x * 4,
                                     pitch, nil, nil, nil, &buffer)
        guard let buffer else { return nil }
        view = (pixels, pitch, rect, buffer)
        return buffer
    }
}
