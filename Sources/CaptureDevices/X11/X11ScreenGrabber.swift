import CX11
import Foundation
import OpenCoreVideo

/// One connection to an X server that copies a rectangle of a screen's root window into BGRA
/// pixel buffers: `XShmGetImage` into a shared-memory image when the server offers MIT-SHM
/// (a local server), else `XGetImage` over the socket. Used by one thread at a time.
///
/// Only TrueColor screens of 32 bits a pixel with red in bits 16–23 (X's BGRX order, as Xorg
/// and Xvfb at depth 24 use) are supported; the fourth byte is set to opaque alpha. Made on one
/// thread and handed to the device thread, which alone uses it, and which `close()`s it. A
/// connection that breaks (the server went away) makes grabs fail and `isBroken` true.
final class X11ScreenGrabber: @unchecked Sendable {
    /// The rectangle's size, in pixels.
    let width: Int
    let height: Int
    private var display: OpaquePointer?
    /// Set by Xlib when the connection breaks.
    private let broken = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private let root: Window
    /// The shared-memory image and its segment, when MIT-SHM is used.
    private var sharedImage: UnsafeMutablePointer<XImage>?
    private var segment: UnsafeMutablePointer<XShmSegmentInfo>?
    private let pool: CVPixelBufferPool
    /// The allocation threshold past which `makeBuffer()` gives nil.
    private let poolLimit: NSDictionary

    /// Opens `displayName` and prepares to grab `width`×`height` rectangles of screen
    /// `screenNumber`; throws when the server cannot be reached or its pixel layout is not BGRX.
    init(displayName: String, screenNumber: Int32, width: Int, height: Int) throws(CaptureDeviceError) {
        var made: CVPixelBufferPool?
        CVPixelBufferPoolCreate(nil, [kCVPixelBufferPoolMaximumBufferAgeKey: 0] as CFDictionary,
                                [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA,
                                 kCVPixelBufferWidthKey: width, kCVPixelBufferHeightKey: height] as CFDictionary, &made)
        guard let made else { throw CaptureDeviceError(.unavailable, "cannot allocate \(width)x\(height) BGRA pixel buffers") }
        pool = made
        // About 256 MB of frames at most, between 4 and 16 buffers.
        poolLimit = [kCVPixelBufferPoolAllocationThresholdKey: max(4, min(16, (256 << 20) / (width * height * 4)))] as NSDictionary
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

    /// A buffer from the pool, or nil when the client holds every buffer the threshold allows.
    func makeBuffer() -> CVPixelBuffer? {
        var buffer: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(nil, pool, poolLimit, &buffer)
        return buffer
    }

    /// Copies the rectangle at (`x`, `y`) of the root window into `buffer` (BGRA, `width`×`height`);
    /// false when the server refused (the rectangle is off the screen, the server is gone).
    func grab(x: Int, y: Int, into buffer: CVPixelBuffer) -> Bool {
        guard let display, !isBroken else { return false }
        if let sharedImage {
            guard XShmGetImage(display, root, sharedImage, Int32(x), Int32(y), cx11_all_planes()) != 0 else { return false }
            copy(sharedImage, into: buffer)
            return true
        }
        guard let image = XGetImage(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height),
                                    cx11_all_planes(), ZPixmap) else { return false }
        defer { cx11_destroy_image(image) }
        guard image.pointee.bits_per_pixel == 32 else { return false }
        copy(image, into: buffer)
        return true
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
