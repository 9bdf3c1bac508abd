import Foundation

/// An immutable bitmap image, as Core Graphics.
///
/// Differs from Apple: a container of pixels and their description only (no decoding, drawing,
/// color matching or masks). Linux addition: `init?(pixelBuffer:)` makes one from a packed RGB
/// `CVPixelBuffer`.
public final class CGImage: @unchecked Sendable {
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
    /// The image's color space.
    public let colorSpace: CGColorSpace?
    /// The pixel layout: alpha information and byte order.
    public let bitmapInfo: CGBitmapInfo
    /// The source of the image's bytes.
    public let dataProvider: CGDataProvider?
    /// Whether the image should be interpolated when scaled.
    public let shouldInterpolate: Bool
    /// The rendering intent.
    public let renderingIntent: CGColorRenderingIntent
    /// The decode array's storage, owned by the image (freed in `deinit`).
    private let decodeStorage: UnsafeMutableBufferPointer<CGFloat>?

    /// The alpha part of `bitmapInfo`.
    public var alphaInfo: CGImageAlphaInfo {
        CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) ?? .none
    }

    /// The decode array (a lower and an upper limit per component), or nil; valid while the image
    /// lives.
    ///
    /// Differs from Apple: stored, not applied when the pixels are read.
    public var decode: UnsafePointer<CGFloat>? {
        decodeStorage.map { UnsafePointer($0.baseAddress!) }
    }

    /// Creates a bitmap image from raw bytes, as Apple's initializer.
    ///
    /// Returns nil for a non-positive size, an unsupported component size, a pixel smaller than
    /// its components, rows shorter than `width` pixels, or a provider with too few bytes.
    public init?(width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
                 space: CGColorSpace, bitmapInfo: CGBitmapInfo, provider: CGDataProvider,
                 decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        guard width > 0, height > 0, [1, 2, 4, 5, 8, 16, 32].contains(bitsPerComponent),
              bitsPerPixel >= bitsPerComponent,
              bytesPerRow >= (width * bitsPerPixel + 7) / 8,
              let data = provider.data,
              data.length >= bytesPerRow * (height - 1) + (width * bitsPerPixel + 7) / 8 else { return nil }
        let alphaBits = bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue
        guard CGImageAlphaInfo(rawValue: alphaBits) != nil else { return nil }
        let hasAlpha = alphaBits != CGImageAlphaInfo.none.rawValue
        self.width = width
        self.height = height
        self.bitsPerComponent = bitsPerComponent
        self.bitsPerPixel = bitsPerPixel
        self.bytesPerRow = bytesPerRow
        self.colorSpace = space
        self.bitmapInfo = bitmapInfo
        self.dataProvider = provider
        self.shouldInterpolate = shouldInterpolate
        self.renderingIntent = intent
        let count = 2 * (space.numberOfComponents + (hasAlpha ? 1 : 0))
        self.decodeStorage = decode.map { values in
            let storage = UnsafeMutableBufferPointer<CGFloat>.allocate(capacity: count)
            _ = storage.initialize(from: UnsafeBufferPointer(start: values, count: count))
            return storage
        }
    }

    deinit {
        decodeStorage?.deallocate()
    }

    /// Whether the image is an image mask: always false here (OpenCoreVideo makes no masks).
    public var isMask: Bool {
        false
    }

    /// Returns an image of the pixels inside `rect` (in pixels, origin at the top-left corner),
    /// rounded out to whole pixels and clipped to the image; nil when nothing is left.
    ///
    /// Differs from Apple: the pixels are copied, not shared; images whose pixels are not a whole
    /// number of bytes return nil.
    public func cropping(to rect: CGRect) -> CGImage? {
        let area = rect.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !area.isNull, !area.isEmpty, bitsPerPixel % 8 == 0, let data = dataProvider?.data else { return nil }
        let pixelBytes = bitsPerPixel / 8
        let x = Int(area.minX), y = Int(area.minY), cropWidth = Int(area.width), cropHeight = Int(area.height)
        let rowBytes = cropWidth * pixelBytes
        let bytes = NSMutableData(length: rowBytes * cropHeight)!
        let source = data.bytes
        let destination = bytes.mutableBytes
        for row in 0..<cropHeight {
            (destination + row * rowBytes).copyMemory(from: source + (y + row) * bytesPerRow + x * pixelBytes,
                                                      byteCount: rowBytes)
        }
        guard let provider = CGDataProvider(data: bytes), let space = colorSpace else { return nil }
        return CGImage(width: cropWidth, height: cropHeight, bitsPerComponent: bitsPerComponent,
                       bitsPerPixel: bitsPerPixel, bytesPerRow: rowBytes, space: space, bitmapInfo: bitmapInfo,
                       provider: provider, decode: decode, shouldInterpolate: shouldInterpolate,
                       intent: renderingIntent)
    }

    /// Creates an sRGB image holding a copy of the pixels of a packed RGB pixel buffer:
    /// `kCVPixelFormatType_32BGRA`, `_32ARGB`, `_32RGBA`, `_32ABGR` or `_24RGB`.
    ///
    /// Linux addition (Apple code uses `VTCreateCGImageFromCVPixelBuffer` or Core Image). Returns
    /// nil for any other format; Y'CbCr buffers must be converted to RGB first. The 32-bit formats
    /// are described as premultiplied alpha; rows keep the buffer's stride.
    public convenience init?(pixelBuffer: CVPixelBuffer) {
        let type = pixelBuffer.pixelFormatType
        let info: CGBitmapInfo
        let bitsPerPixel: Int
        switch type {
        case kCVPixelFormatType_32BGRA:
            info = [CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue), .byteOrder32Little]
            bitsPerPixel = 32
        case kCVPixelFormatType_32ARGB:
            info = [CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue), .byteOrder32Big]
            bitsPerPixel = 32
        case kCVPixelFormatType_32RGBA:
            info = [CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue), .byteOrder32Big]
            bitsPerPixel = 32
        case kCVPixelFormatType_32ABGR:
            info = [CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue), .byteOrder32Little]
            bitsPerPixel = 32
        case kCVPixelFormatType_24RGB:
            info = CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue)
            bitsPerPixel = 24
        default:
            return nil
        }
        let plane = pixelBuffer.planes[0]
        let rowBytes = pixelBuffer.width * bitsPerPixel / 8
        guard !pixelBuffer.isPlanar, plane.bytesPerRow >= rowBytes else { return nil }
        // Copy up to the end of the last row's pixels: never read past the buffer's last row.
        let count = plane.bytesPerRow * (pixelBuffer.height - 1) + rowBytes
        let bytes = NSData(bytes: plane.baseAddress, length: count)
        guard let provider = CGDataProvider(data: bytes),
              let space = CGColorSpace(name: CGColorSpace.sRGB) else { return nil }
        self.init(width: pixelBuffer.width, height: pixelBuffer.height, bitsPerComponent: 8,
                  bitsPerPixel: bitsPerPixel, bytesPerRow: plane.bytesPerRow, space: space, bitmapInfo: info,
                  provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
    }
}
