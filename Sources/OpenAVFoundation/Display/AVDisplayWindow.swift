import Display
import Foundation
import HostSystem
import OpenCoreVideo

/// A native window that shows a layer. Linux addition: it puts an `AVPlayerLayer` or an
/// `AVCaptureVideoPreviewLayer` on the screen, where Apple platforms use a view.
///
/// The window draws through SDL2 on whatever the machine has: an X11 or Wayland desktop, or the
/// KMS/DRM console of a machine without one (a Raspberry Pi kiosk). Pictures go to the GPU as
/// YUV textures, which it converts and scales where there is one. The layer fills the window and
/// follows its size; put several layers in one window as sublayers of a plain `CALayer`.
///
/// ```swift
/// let player = AVPlayer(url: movieURL)
/// let window = try AVDisplayWindow(layer: AVPlayerLayer(player: player), title: "Movie")
/// window.closeHandler = { player.pause() }
/// player.play()
/// ```
///
/// Opening a window where there is no display (no `$DISPLAY`, no Wayland socket, no usable DRM
/// device) throws `AVError.deviceNotConnected` saying so.
open class AVDisplayWindow: NSObject, @unchecked Sendable {
    private let window: VideoWindow
    @Locked private var shownLayer: CALayer
    @Locked private var titleValue: String
    @Locked private var onClose: (() -> Void)? = nil
    @Locked private var onKey: ((Key) -> Void)? = nil

    /// Opens a window of `size` points titled `title` that shows `layer`, centred on the screen.
    public convenience init(layer: CALayer, title: String = "OpenAVFoundation", size: CGSize = CGSize(width: 1280, height: 720)) throws {
        try self.init(layer: layer, title: title, size: size, origin: nil)
    }

    /// Opens the window at `origin` on the screen when one is given (tests place it).
    init(layer: CALayer, title: String, size: CGSize, origin: CGPoint?) throws {
        do throws(DisplayError) {
            window = try VideoWindow(title: title, width: Int(size.width.rounded()), height: Int(size.height.rounded()),
                                     origin: origin.map { (Int($0.x), Int($0.y)) })
        } catch {
            throw AVError(.deviceNotConnected, reason: error.description)
        }
        shownLayer = layer
        titleValue = title
        super.init()
        layer.frame = CGRect(origin: .zero, size: size)
        layer.enteredWindow()
        window.setCompose { [weak self] width, height in self?.compose(width: width, height: height) ?? [] }
        window.onClose { [weak self] in
            guard let self else { return }
            shownLayer.leftWindow()
            onClose?()
        }
        window.setKeyHandler { [weak self] key in
            guard let self, let handler = onKey else { return }
            switch key {
            case .character(let character): handler(.character(character))
            case .left: handler(.leftArrow)
            case .right: handler(.rightArrow)
            case .up: handler(.upArrow)
            case .down: handler(.downArrow)
            case .escape: handler(.escape)
            }
        }
    }

    /// A window let go is closed, as one closed by `close()`.
    deinit {
        window.closeSoon()
        shownLayer.leftWindow()
    }

    /// The layer the window shows; its frame follows the window's size.
    open var layer: CALayer {
        get { shownLayer }
        set {
            let old = $shownLayer.withLock { shown -> CALayer in
                defer { shown = newValue }
                return shown
            }
            if old !== newValue {
                old.leftWindow()
                newValue.enteredWindow()
            }
        }
    }

    /// The window's title.
    open var title: String {
        get { titleValue }
        set {
            titleValue = newValue
            window.setTitle(newValue)
        }
    }

    /// The window's size in points.
    open var size: CGSize {
        let (width, height) = window.size
        return CGSize(width: width, height: height)
    }

    /// Whether the window fills the screen.
    open var isFullScreen: Bool {
        get { window.isFullScreen }
        set { window.setFullScreen(newValue) }
    }

    /// Fills the screen with the window, or gives it back its size.
    open func toggleFullScreen() {
        isFullScreen.toggle()
    }

    /// Whether the window is closed (by the user, or by `close()`).
    open var isClosed: Bool { window.isClosed }

    /// Called when the user closes the window (on the window's own thread).
    open var closeHandler: (() -> Void)? {
        get { onClose }
        set { onClose = newValue }
    }

    /// Called for each key pressed in the window (on the window's own thread).
    open var keyHandler: ((Key) -> Void)? {
        get { onKey }
        set { onKey = newValue }
    }

    /// Closes the window; its layer stops taking pictures.
    open func close() {
        window.close()
        layer.leftWindow()
    }

    /// How many times the window's picture was drawn anew (for tests that wait for a picture).
    var presentedCount: Int { window.presentedCount }

    /// The pictures to draw in a window of `width`×`height` pixels: the layer, sized to the
    /// window, and its sublayers, in pixels.
    private func compose(width: Int, height: Int) -> [VideoWindow.Picture] {
        let points = window.size
        guard points.width > 0, points.height > 0 else { return [] }
        let root = layer
        root.frame = CGRect(x: 0, y: 0, width: points.width, height: points.height)
        let scaleX = Double(width) / Double(points.width), scaleY = Double(height) / Double(points.height)
        func pixels(_ rect: CGRect) -> VideoWindow.Rect {
            let left = (rect.minX * scaleX).rounded(), top = (rect.minY * scaleY).rounded()
            return VideoWindow.Rect(x: Int(left), y: Int(top), width: Int((rect.maxX * scaleX).rounded() - left),
                                    height: Int((rect.maxY * scaleY).rounded() - top))
        }
        return root.pictures(at: .zero).map {
            VideoWindow.Picture(buffer: $0.buffer, rect: pixels($0.rect), clip: pixels($0.clip), quarterTurns: $0.quarterTurns, mirrored: $0.mirrored)
        }
    }
}
