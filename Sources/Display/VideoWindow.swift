import CSDL2
import Foundation
import MediaEngine
import OpenCoreVideo

/// A native window that shows pictures: an SDL window with a renderer (the GPU's where there is
/// one, SDL's software renderer otherwise) on X11, Wayland or the KMS/DRM console, whichever
/// the session has. Pictures go up as YUV textures, so the GPU converts and scales them.
///
/// Thread-safe: every SDL call is made on the display thread. Between events the window asks its
/// `compose` handler which pictures to show where, and redraws only when that changed (a new
/// picture, a new place) or the window was resized or uncovered. A picture much larger than its
/// place is first scaled down (bicubic, by the one `PixelConverter`): a GPU's bilinear sampling
/// alone would skip pixels and alias.
package final class VideoWindow: @unchecked Sendable {
    /// A key pressed in the window.
    package enum Key: Equatable, Sendable {
        case character(Character)
        case left, right, up, down, escape
    }

    /// A rectangle in the window's pixels.
    package struct Rect: Equatable {
        package var x: Int, y: Int, width: Int, height: Int

        package init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }

        var sdl: SDL_Rect { SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height)) }
    }

    /// One picture, where it goes and what of it may show (the rest is cut), in the window's
    /// pixels, turned clockwise by `quarterTurns` quarter turns and mirrored left to right first
    /// when `mirrored`; `rect` is where the turned picture goes. The buffer is in one of
    /// `pixelFormats`.
    package struct Picture {
        package let buffer: CVPixelBuffer
        package let rect: Rect
        package let clip: Rect
        package let quarterTurns: Int
        package let mirrored: Bool

        package init(buffer: CVPixelBuffer, rect: Rect, clip: Rect, quarterTurns: Int = 0, mirrored: Bool = false) {
            self.buffer = buffer
            self.rect = rect
            self.clip = clip
            self.quarterTurns = ((quarterTurns % 4) + 4) % 4
            self.mirrored = mirrored
        }
    }

    /// The pixel formats a window shows as they are: NV12 (`420v`, `420f`), I420 (`y420`,
    /// `f420`), `BGRA`, and the cameras' YUYV (`yuvs`) and UYVY (`2vuy`).
    package static let pixelFormats: [OSType] = [
        kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
        kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_420YpCbCr8PlanarFullRange, kCVPixelFormatType_32BGRA,
        kCVPixelFormatType_422YpCbCr8_yuvs, kCVPixelFormatType_422YpCbCr8,
    ]

    /// A texture and what it was made for.
    private struct Texture {
        let texture: OpaquePointer
        let format: OSType
        let width: Int, height: Int
    }

    private let display: DisplayThread
    private let lock = NSLock()
    private var composeHandler: ((Int, Int) -> [Picture])?
    private var closeHandlers: [() -> Void] = []
    private var keyHandler: ((Key) -> Void)?
    private var closed = false
    private var presented = 0
    // The display thread's own state.
    private var window: OpaquePointer?
    private var renderer: OpaquePointer?
    private var windowID: UInt32 = 0
    private var textures: [Texture] = []
    /// Per picture slot: the last picture scaled down, and what it was made from.
    private var shrunk: [(source: CVPixelBuffer, picture: CVPixelBuffer)?] = []
    private let converter = PixelConverter()
    private let pools = PixelBufferPools(capacity: 2)
    private var shown: [(ObjectIdentifier, Rect, Rect, Int, Bool)] = []
    private var shownBuffers: [CVPixelBuffer] = []
    private var needsRedraw = true

    /// Opens a window `width`×`height` points large, titled `title`, centred on the screen or at
    /// `origin`; throws when there is no display.
    package init(title: String, width: Int, height: Int, origin: (x: Int, y: Int)? = nil) throws(DisplayError) {
        display = try DisplayThread.shared.get()
        let made: DisplayError? = display.perform { [self] in
            let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
            let centred = csdl2_windowpos_centered()
            guard let window = SDL_CreateWindow(title, Int32(origin?.x ?? Int(centred)), Int32(origin?.y ?? Int(centred)),
                                                Int32(width), Int32(height), flags) else {
                return DisplayError("cannot open a window: \(String(cString: SDL_GetError()))")
            }
            guard let renderer = SDL_CreateRenderer(window, -1, 0) else {
                let error = DisplayError("cannot draw in a window: \(String(cString: SDL_GetError()))")
                SDL_DestroyWindow(window)
                return error
            }
            self.window = window
            self.renderer = renderer
            windowID = SDL_GetWindowID(window)
            display.add(self, id: windowID)
            return nil
        }
        if let made { throw made }
    }

    deinit {
        let (window, renderer, textures, id) = (window, renderer, textures, windowID)
        guard let window else { return }
        display.enqueue { [display] in
            Self.destroy(window: window, renderer: renderer, textures: textures)
            display.remove(id: id)
        }
    }

    /// The handler asked, on the display thread, which pictures to show in a window of the given
    /// size in pixels.
    package func setCompose(_ handler: ((_ width: Int, _ height: Int) -> [Picture])?) {
        lock.withLock { composeHandler = handler }
    }

    /// Adds a handler called (on the display thread) when the user closes the window.
    package func onClose(_ handler: @escaping () -> Void) {
        lock.withLock { closeHandlers.append(handler) }
    }

    /// The handler called (on the display thread) for each key pressed in the window.
    package func setKeyHandler(_ handler: ((Key) -> Void)?) {
        lock.withLock { keyHandler = handler }
    }

    /// How many times the window's contents were redrawn and shown.
    package var presentedCount: Int { lock.withLock { presented } }

    /// Whether the window was closed (by the user or by `close()`).
    package var isClosed: Bool { lock.withLock { closed } }

    /// The window's title.
    package func setTitle(_ title: String) {
        display.enqueue { [self] in if let window { SDL_SetWindowTitle(window, title) } }
    }

    /// Fills the screen with the window (at the desktop's resolution) or gives it back its size.
    package func setFullScreen(_ fullScreen: Bool) {
        display.enqueue { [self] in
            if let window { SDL_SetWindowFullscreen(window, fullScreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0) }
        }
    }

    /// Whether the window fills the screen.
    package var isFullScreen: Bool {
        display.perform { [self] in
            guard let window else { return false }
            return SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue == SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue
        }
    }

    /// The window's size in points.
    package var size: (width: Int, height: Int) {
        display.perform { [self] in
            var width: Int32 = 0, height: Int32 = 0
            if let window { SDL_GetWindowSize(window, &width, &height) }
            return (Int(width), Int(height))
        }
    }

    /// Closes the window; nothing is drawn in it any more.
    package func close() {
        display.perform { [self] in closeNow() }
    }

    // MARK: The display thread

    private func closeNow() {
        guard let window else { return }
        Self.destroy(window: window, renderer: renderer, textures: textures)
        display.remove(id: windowID)
        self.window = nil
        renderer = nil
        textures = []
        shownBuffers = []
        lock.withLock { closed = true }
    }

    private static func destroy(window: OpaquePointer, renderer: OpaquePointer?, textures: [Texture]) {
        for texture in textures { SDL_DestroyTexture(texture.texture) }
        if let renderer { SDL_DestroyRenderer(renderer) }
        SDL_DestroyWindow(window)
    }

    func handle(windowEvent event: SDL_WindowEvent) {
        switch SDL_WindowEventID(UInt32(event.event)) {
        case SDL_WINDOWEVENT_CLOSE:
            let handlers = lock.withLock { closeHandlers }
            closeNow()
            for handler in handlers { handler() }
        case SDL_WINDOWEVENT_EXPOSED, SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_RESIZED, SDL_WINDOWEVENT_SHOWN:
            needsRedraw = true
        default: break
        }
    }

    func handle(key event: SDL_KeyboardEvent) {
        let key: Key
        switch SDL_KeyCode(UInt32(bitPattern: event.keysym.sym)) {
        case SDLK_LEFT: key = .left
        case SDLK_RIGHT: key = .right
        case SDLK_UP: key = .up
        case SDLK_DOWN: key = .down
        case SDLK_ESCAPE: key = .escape
        default: return
        }
        lock.withLock { keyHandler }?(key)
    }

    func handle(text event: SDL_TextInputEvent) {
        var characters = event.text
        let text = withUnsafeBytes(of: &characters) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let handler = lock.withLock({ keyHandler }) else { return }
        for character in text { handler(.character(character)) }
    }

    /// Draws the pictures the compose handler gives, when they differ from those shown.
    func refresh() {
        guard let renderer else { return }
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        let pictures = lock.withLock { composeHandler }?(Int(width), Int(height)) ?? []
        let placed = pictures.map { (ObjectIdentifier($0.buffer), $0.rect, $0.clip, $0.quarterTurns, $0.mirrored) }
        guard needsRedraw || !placed.elementsEqual(shown, by: ==) else { return }
        needsRedraw = false
        shown = placed
        shownBuffers = pictures.map(\.buffer)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        for (index, picture) in pictures.enumerated() {
            let buffer = shrunkPicture(index, picture)
            guard let texture = texture(index, for: buffer) else { continue }
            upload(buffer, to: texture)
            // SDL turns the target about its centre: before turning, a quarter-turned picture
            // has the rectangle's width and height swapped.
            var target = picture.rect.sdl, clip = picture.clip.sdl
            if picture.quarterTurns % 2 == 1 {
                target = SDL_Rect(x: target.x + (target.w - target.h) / 2, y: target.y + (target.h - target.w) / 2, w: target.h, h: target.w)
            }
            SDL_RenderSetClipRect(renderer, &clip)
            SDL_RenderCopyEx(renderer, texture, nil, &target, Double(picture.quarterTurns) * 90, nil,
                             picture.mirrored ? SDL_FLIP_HORIZONTAL : SDL_FLIP_NONE)
        }
        SDL_RenderSetClipRect(renderer, nil)
        SDL_RenderPresent(renderer)
        lock.withLock { presented += 1 }
    }

    /// The picture to draw in slot `index`: its buffer, or, when that is more than a quarter
    /// larger than its place on either side, the buffer scaled down to the place (NV12 for YUV,
    /// BGRA for BGRA), once per picture.
    private func shrunkPicture(_ index: Int, _ picture: Picture) -> CVPixelBuffer {
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

    /// The texture in slot `index`, made again when the picture's format or size changed.
    private func texture(_ index: Int, for buffer: CVPixelBuffer) -> OpaquePointer? {
        let format = CVPixelBufferGetPixelFormatType(buffer)
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        if index < textures.count {
            let existing = textures[index]
            if existing.format == format && existing.width == width && existing.height == height { return existing.texture }
            SDL_DestroyTexture(existing.texture)
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
        SDL_SetYUVConversionMode(Self.conversionMode(buffer))
        guard let texture = SDL_CreateTexture(renderer, sdlFormat, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(width), Int32(height)) else {
            return nil
        }
        let made = Texture(texture: texture, format: format, width: width, height: height)
        if index < textures.count { textures[index] = made } else { textures.append(made) }
        return texture
    }

    /// SDL's YUV-to-RGB conversion for a picture: full range as JPEG does, else the matrix its
    /// attachments name (BT.709 or BT.601), else SDL's choice by size (BT.709 above 576 lines,
    /// as FFmpeg guesses for untagged video).
    private static func conversionMode(_ buffer: CVPixelBuffer) -> SDL_YUV_CONVERSION_MODE {
        let format = CVPixelBufferGetPixelFormatType(buffer)
        if format == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange || format == kCVPixelFormatType_420YpCbCr8PlanarFullRange {
            return SDL_YUV_CONVERSION_JPEG
        }
        switch CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey as CFString, nil) as? String {
        case kCVImageBufferYCbCrMatrix_ITU_R_709_2 as String: return SDL_YUV_CONVERSION_BT709
        case kCVImageBufferYCbCrMatrix_ITU_R_601_4 as String: return SDL_YUV_CONVERSION_BT601
        default: return SDL_YUV_CONVERSION_AUTOMATIC
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
