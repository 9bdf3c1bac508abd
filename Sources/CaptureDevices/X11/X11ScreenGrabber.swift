import CX11
import Foundation
import MediaEngine
import OpenCoreVideo

/// One connection to an X server that copies a rectangle of a screen's root window into BGRA
/// pixel buffers: `XShmGetImage` into a shared-memory image when the server offers MIT-SHM
/// (a local server), else `XGetImage` over the socket. The pointer is drawn over the copy when
/// asked (its position and buttons from `XQueryPointer`, the cursor's picture from XFixes'
/// `XFixesGetCursorImage`), and the result is scaled to the delivered size by the shared
/// `PixelConverter` when that differs from the rectangle's. Used by one thread at a time.
///
/// Only TrueColor screens of 32 bits a pixel with red in bits 16–23 (X's BGRX order, as Xorg
/// and Xvfb at depth 24 use) are supported; the fourth byte is set to opaque alpha. Made on one
/// thread and handed to the device thread, which alone uses it, and which `close()`s it. A
/// connection that breaks (the server went away) makes grabs fail and `isBroken` true.
final class X11ScreenGrabber: @unchecked Sendable {
    /// The rectangle's size, in pixels.
    let width: Int
    let height: Int
    /// The size of the delivered buffers.
    let outputWidth: Int
    let outputHeight: Int
    private var display: OpaquePointer?
    /// Set by Xlib when the connection breaks.
    private let broken = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private let root: Window
    /// Whether the server offers XFixes, without which the cursor is not drawn.
    private let hasXFixes: Bool
    /// The shared-memory image and its segment, when MIT-SHM is used.
    private var sharedImage: UnsafeMutablePointer<XImage>?
    private var segment: UnsafeMutablePointer<XShmSegmentInfo>?
    /// The delivered buffers.
    private let pool: DeviceFramePool
    /// The picture at the rectangle's size before it is scaled, when the sizes differ.
    private let unscaled: CVPixelBuffer?
    private let converter = PixelConverter()

    /// Opens `displayName` and prepares to grab `width`×`height` rectangles of screen
    /// `screenNumber` into `outputWidth`×`outputHeight` buffers; throws when the server cannot
    /// be reached, its pixel layout is not BGRX, or the buffers cannot be allocated.
    init(displayName: String, screenNumber: Int32, width: Int, height: Int,
         outputWidth: Int, outputHeight: Int) throws(CaptureDeviceError) {
        pool = try DeviceFramePool(pixelFormat: kCVPixelFormatType_32BGRA, width: outputWidth, height: outputHeight)
        if (outputWidth, outputHeight) == (width, height) {
            unscaled = nil
        } else {
            var buffer: CVPixelBuffer?
            CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &buffer)
            guard let buffer else { throw CaptureDeviceError(.unavailable, "cannot allocate a \(width)x\(height) BGRA pixel buffer") }
            unscaled = buffer
        }
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        cx11_install_error_handler()
        guard let display = XOpenDisplay(displayName) else {
            throw CaptureDeviceError(.disconnected, "cannot open X display \(displayName)")
        }
        broken.initialize(to: 0)
        cx11_survive_broken_connection(display, broken)
        self.display = display
        self.width = width
        self.height = height
        root = XRootWindow(display, screenNumber)
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        hasXFixes = XFixesQueryExtension(display, &eventBase, &errorBase) != 0
        let visual = XDefaultVisual(display, screenNumber)
        let depth = XDefaultDepth(display, screenNumber)
        guard let visual, visual.pointee.red_mask == 0xFF0000, visual.pointee.blue_mask == 0xFF,
              XImageByteOrder(display) == LSBFirst else {
            XCloseDisplay(display)
            broken.deallocate()
            throw CaptureDeviceError(.unsupportedFormat, "X display \(displayName) is not a 24-bit BGRX screen")
        }
        if XShmQueryExtension(display) != 0 { attachSharedImage(visual: visual, depth: depth) }
    }

    deinit {
        close()
        broken.deallocate()
    }

    /// Whether the connection broke.
    var isBroken: Bool { broken.pointee != 0 }

    /// Detaches the shared memory and closes the connection; grabs fail afterwards.
    func close() {
        guard let display else { return }
        self.display = nil
        if isBroken {
            segment.map { shmdt($0.pointee.shmaddr) }
        } else if let segment {
            XShmDetach(display, segment)
            XSync(display, 0)
            shmdt(segment.pointee.shmaddr)
        }
        segment?.deallocate()
        segment = nil
        if let sharedImage {
            sharedImage.pointee.data = nil
            cx11_destroy_image(sharedImage)
            self.sharedImage = nil
        }
        XCloseDisplay(display)
    }

    /// Whether grabs go through MIT-SHM.
    var usesSharedMemory: Bool { sharedImage != nil }

    /// Makes the shared-memory image, or leaves `sharedImage` nil when any step fails (a remote
    /// server cannot attach the segment).
    private func attachSharedImage(visual: UnsafeMutablePointer<Visual>, depth: Int32) {
        guard let display else { return }
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        guard let image = XShmCreateImage(display, visual, UInt32(depth), ZPixmap, nil, info,
                                          UInt32(width), UInt32(height)) else {
            info.deallocate()
            return
        }
        let id = cx11_shm_create(Int(image.pointee.bytes_per_line) * height)
        let address = id < 0 ? nil : shmat(id, nil, 0)
        guard id >= 0, let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
            if id >= 0 { cx11_shm_remove(id) }
            image.pointee.data = nil
            cx11_destroy_image(image)
            info.deallocate()
            return
        }
        info.pointee.shmid = id
        info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = 0
        image.pointee.data = info.pointee.shmaddr
        let attached = XShmAttach(display, info) != 0
        XSync(display, 0)
        cx11_shm_remove(id)
        // A server that could not attach the segment (a remote one) refuses the first grab.
        guard attached, image.pointee.bits_per_pixel == 32,
              XShmGetImage(display, root, image, 0, 0, cx11_all_planes()) != 0 else {
            if attached { XShmDetach(display, info); XSync(display, 0) }
            shmdt(address)
            image.pointee.data = nil
            cx11_destroy_image(image)
            info.deallocate()
            return
        }
        sharedImage = image
        segment = info
    }

    /// A buffer from the pool, or nil when the client holds every buffer the pool allows.
    func makeBuffer() -> CVPixelBuffer? { pool.makeBuffer() }

    /// Copies the rectangle at (`x`, `y`) of the root window into `buffer` (BGRA, the output
    /// size), with the cursor drawn over it if `cursor` and a ring around the pointer while a
    /// button is down if `clicks`; false when the server refused (the rectangle is off the
    /// screen, the server is gone) or the picture could not be scaled.
    func grab(x: Int, y: Int, into buffer: CVPixelBuffer, cursor: Bool, clicks: Bool) -> Bool {
        guard let display, !isBroken else { return false }
        let target = unscaled ?? buffer
        if let sharedImage {
            guard XShmGetImage(display, root, sharedImage, Int32(x), Int32(y), cx11_all_planes()) != 0 else { return false }
            copy(sharedImage, into: target)
        } else {
            guard let image = XGetImage(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height),
                                        cx11_all_planes(), ZPixmap) else { return false }
            defer { cx11_destroy_image(image) }
            guard image.pointee.bits_per_pixel == 32 else { return false }
            copy(image, into: target)
        }
        if cursor || clicks, let pointer = pointer(withCursor: cursor) {
            pointer.draw(into: target, origin: (x, y), clicks: clicks)
        }
        if let unscaled {
            do {
                try converter.convert(unscaled, into: buffer)
            } catch {
                return false
            }
        }
        return true
    }

    /// Where the pointer is and whether a button is down (`XQueryPointer`), with the cursor's
    /// picture (`XFixesGetCursorImage`) if `withCursor` and the server offers XFixes; nil when
    /// the pointer is on another screen of the display or the server did not answer.
    private func pointer(withCursor: Bool) -> X11Pointer? {
        guard let display else { return nil }
        var rootReturn: Window = 0, child: Window = 0
        var rootX: Int32 = 0, rootY: Int32 = 0, windowX: Int32 = 0, windowY: Int32 = 0
        var mask: UInt32 = 0
        guard XQueryPointer(display, root, &rootReturn, &child, &rootX, &rootY, &windowX, &windowY, &mask) != 0 else {
            return nil
        }
        var cursor: X11Pointer.Cursor?
        if withCursor, hasXFixes, let image = XFixesGetCursorImage(display) {
            defer { XFree(image) }
            let picture = image.pointee
            let count = Int(picture.width) * Int(picture.height)
            // Each pixel is an unsigned long holding 32-bit ARGB.
            let pixels = picture.pixels.map { pointer in (0..<count).map { UInt32(truncatingIfNeeded: pointer[$0]) } } ?? []
            if pixels.count == count {
                cursor = X11Pointer.Cursor(width: Int(picture.width), height: Int(picture.height),
                                           hotspot: (Int(picture.xhot), Int(picture.yhot)), pixels: pixels)
            }
        }
        let buttons = UInt32(Button1Mask | Button2Mask | Button3Mask)
        return X11Pointer(x: Int(rootX), y: Int(rootY), isButtonDown: mask & buttons != 0, cursor: cursor)
    }

    /// Row by row, with the fourth byte of every pixel set to 255 (X leaves it undefined).
    private func copy(_ image: UnsafeMutablePointer<XImage>, into buffer: CVPixelBuffer) {
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        guard let target = CVPixelBufferGetBaseAddress(buffer), let source = image.pointee.data else { return }
        let targetStride = CVPixelBufferGetBytesPerRow(buffer)
        let sourceStride = Int(image.pointee.bytes_per_line)
        for row in 0..<height {
            let from = UnsafeRawPointer(source) + row * sourceStride
            let to = target + row * targetStride
            to.copyMemory(from: from, byteCount: width * 4)
            let pixels = to.assumingMemoryBound(to: UInt32.self)
            for column in 0..<width { pixels[column] |= 0xFF00_0000 }
        }
    }
}
