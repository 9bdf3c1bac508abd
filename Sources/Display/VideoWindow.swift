import CSDL2
import Foundation
import HostSystem
import OpenCoreVideo

/// A native window that shows pictures: an SDL window on X11, Wayland or the KMS/DRM console,
/// whichever the session has.
///
/// Thread-safe: every SDL call is made on the display thread. Between events the window asks its
/// `compose` handler which pictures to show where, and redraws only when that changed (a new
/// picture, a new place) or the window was resized or uncovered. Its canvas draws: the GPU's
/// (`RendererCanvas`) or, without one, the window's own pixels (`SurfaceCanvas`).
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

        /// The part both rectangles cover (zero width or height when none).
        func intersection(_ other: Rect) -> Rect {
            let left = max(x, other.x), top = max(y, other.y)
            let right = min(x + width, other.x + other.width), bottom = min(y + height, other.y + other.height)
            return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
        }
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

    private let display: DisplayThread
    @Locked private var composeHandler: ((Int, Int) -> [Picture])? = nil
    @Locked private var closeHandlers: [() -> Void] = []
    @Locked private var keyHandler: ((Key) -> Void)? = nil
    @Locked private var closed = false
    @Locked private var presented = 0
    // The display thread's own state.
    private var window: OpaquePointer?
    private var canvas: WindowCanvas?
    private var windowID: UInt32 = 0
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
            do throws(DisplayError) {
                canvas = try Self.canvas(for: window)
            } catch {
                SDL_DestroyWindow(window)
                return error
            }
            self.window = window
            windowID = SDL_GetWindowID(window)
            display.add(self, id: windowID)
            return nil
        }
        if let made { throw made }
    }

    deinit {
        let (window, canvas, id) = (window, canvas, windowID)
        guard let window else { return }
        display.enqueue { [display] in
            canvas?.destroy()
            SDL_DestroyWindow(window)
            display.remove(id: id)
        }
    }

    /// How the window draws: straight into its surface on an X11 display without a GPU (no DRM
    /// render node, and `SDL_RENDER_DRIVER` names no renderer) whose pixels are 32-bit BGRX, so
    /// that one conversion takes a picture to the screen; through SDL's renderer otherwise (SDL
    /// has no framebuffer of its own on Wayland and the console).
    private static func canvas(for window: OpaquePointer) throws(DisplayError) -> WindowCanvas {
        let renderNodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri"))?.filter { $0.hasPrefix("renderD") } ?? []
        let rendererNamed = !(ProcessInfo.processInfo.environment["SDL_RENDER_DRIVER"] ?? "").isEmpty
        let onX11 = SDL_GetCurrentVideoDriver().map { String(cString: $0) } == "x11"
        if onX11 && renderNodes.isEmpty && !rendererNamed, let surface = SurfaceCanvas(window: window) { return surface }
        return try RendererCanvas(window: window)
    }

    /// The handler asked, on the display thread, which pictures to show in a window of the given
    /// size in pixels.
    package func setCompose(_ handler: ((_ width: Int, _ height: Int) -> [Picture])?) {
        composeHandler = handler
    }

    /// Adds a handler called (on the display thread) when the user closes the window.
    package func onClose(_ handler: @escaping () -> Void) {
        $closeHandlers.withLock { $0.append(handler) }
    }

    /// The handler called (on the display thread) for each key pressed in the window.
    package func setKeyHandler(_ handler: ((Key) -> Void)?) {
        keyHandler = handler
    }

    /// How many times the window's contents were redrawn and shown.
    package var presentedCount: Int { presented }

    /// Whether the window was closed (by the user or by `close()`).
    package var isClosed: Bool { closed }

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

    /// Closes the window soon, without waiting (its owner is going away).
    package func closeSoon() {
        display.enqueue { [self] in closeNow() }
    }

    // MARK: The display thread

    private func closeNow() {
        guard let window else { return }
        canvas?.destroy()
        SDL_DestroyWindow(window)
        display.remove(id: windowID)
        self.window = nil
        canvas = nil
        shownBuffers = []
        closed = true
    }

    func handle(windowEvent event: SDL_WindowEvent) {
        switch SDL_WindowEventID(UInt32(event.event)) {
        case SDL_WINDOWEVENT_CLOSE:
            let handlers = closeHandlers
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
        keyHandler?(key)
    }

    func handle(text event: SDL_TextInputEvent) {
        var characters = event.text
        let text = withUnsafeBytes(of: &characters) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let handler = keyHandler else { return }
        for character in text { handler(.character(character)) }
    }

    /// Draws the pictures the compose handler gives, when they differ from those shown.
    func refresh() {
        guard let canvas else { return }
        let (width, height) = canvas.pixelSize
        let pictures = composeHandler?(width, height) ?? []
        let placed = pictures.map { (ObjectIdentifier($0.buffer), $0.rect, $0.clip, $0.quarterTurns, $0.mirrored) }
        guard needsRedraw || !placed.elementsEqual(shown, by: ==) else { return }
        needsRedraw = false
        shown = placed
        shownBuffers = pictures.map(\.buffer)
        canvas.draw(pictures)
        $presented.withLock { $0 += 1 }
    }
}
