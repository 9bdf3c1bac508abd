import Foundation

/// A bitmap context, as Core Graphics: pixels in memory (the caller's or its own) with their
/// description, from which `makeImage()` makes images.
///
/// Differs from Apple: only bitmap contexts, and no drawing (paths, images, text, transforms);
/// enough for the common capture code that wraps a BGRA pixel buffer's memory and makes a
/// `CGImage` of it (the programming guide's `imageFromSampleBuffer`).
public final class CGContext: @unchecked Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bits in one color or alpha component.
    public let bitsPerComponent: Int
    /// Bits in one pixel.
    public let bitsPerPixel: Int
    /// Bytes from the start of one row to the next.
    public let bytesPerRow: Int
    /// The pixels' color space.
    public let colorSpace: CGColorSpace?
    /// The pixel layout: alpha information and byte order.
    public let bitmapInfo: CGBitmapInfo
    /// The first byte of the pixels.
    public let data: UnsafeMutableRawPointer?
    /// The alpha part of `bitmapInfo`.
    public var alphaInfo: CGImageAlphaInfo {
        CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) ?? .none
    }
    /// Whether the context allocated `data` (and frees it).
    private let ownsData: Bool

    /// A bitmap context over `data` (nil: memory of its own, zeroed), as Apple's initializer;
    /// `bytesPerRow` 0 means the smallest. Nil for a size, component size or row length that
    /// cannot hold the pixels.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
                 space: CGColorSpace?, bitmapInfo: CGBitmapInfo) {
        let alpha = CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue)
        guard width > 0, height > 0, [1, 2, 4, 5, 8, 16, 32].contains(bitsPerComponent), let alpha else { return nil }
        let components = alpha == .alphaOnly ? 1 : (space?.numberOfComponents ?? 3) + (alpha == .none ? 0 : 1)
        let pixelBits = components * bitsPerComponent
        let rowBytes = bytesPerRow == 0 ? (width * pixelBits + 7) / 8 : bytesPerRow
        guard rowBytes >= (width * pixelBits + 7) / 8 else { return nil }
        self.width = width
        self.height = height
        self.bitsPerComponent = bitsPerComponent
        self.bitsPerPixel = pixelBits
        self.bytesPerRow = rowBytes
        self.colorSpace = space
        self.bitmapInfo = bitmapInfo
        if let data {
            self.data = data
            ownsData = false
        } else {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * height, alignment: 64)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes * height)
            self.data = memory
            ownsData = true
        }
    }

    /// A bitmap context with the bitmap information as a raw value
    /// (`CGImageAlphaInfo….rawValue | CGBitmapInfo.byteOrder….rawValue`), as Apple's older
    /// initializer.
    public convenience init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int,
                             bytesPerRow: Int, space: CGColorSpace, bitmapInfo: UInt32) {
        self.init(data: data, width: width, height: height, bitsPerComponent: bitsPerComponent, bytesPerRow: bytesPerRow,
                  space: Optional(space), bitmapInfo: CGBitmapInfo(rawValue: bitmapInfo))
    }

    deinit {
        if ownsData { data?.deallocate() }
    }

    /// An image of the pixels as they are now (a copy: later changes do not reach it).
    public func makeImage() -> CGImage? {
        guard let data, let space = colorSpace ?? CGColorSpace(name: CGColorSpace.sRGB) else { return nil }
        let bytes = NSData(bytes: data, length: bytesPerRow * height)
        guard let provider = CGDataProvider(data: bytes) else { return nil }
        return CGImage(width: width, height: height, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                       bytesPerRow: bytesPerRow, space: space, bitmapInfo: bitmapInfo, provider: provider, decode: nil,
                       shouldInterpolate: true, intent: .defaultIntent)
    }
}
