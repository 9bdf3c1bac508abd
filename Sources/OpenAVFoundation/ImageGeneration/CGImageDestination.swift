import Foundation
import MediaEngine
import OpenCoreVideo

/// The option key for JPEG quality, from 0 (smallest) to 1 (best; the default is 0.9 here).
///
/// Linux addition: ImageIO's on Apple platforms, provided by OpenAVFoundation here.
public let kCGImageDestinationLossyCompressionQuality: CFString = "kCGImageDestinationLossyCompressionQuality"

/// Writes images to PNG or JPEG files or data: ImageIO's `CGImageDestination`, which Apple code
/// uses to save thumbnails made by `AVAssetImageGenerator`.
///
/// Linux addition: on Apple platforms this is ImageIO's; here it lives in OpenAVFoundation and
/// encodes with FFmpeg's PNG and JPEG encoders. Types are "public.png" and "public.jpeg";
/// one image per destination.
public final class CGImageDestination: @unchecked Sendable {
    enum Target {
        case file(URL)
        case data(NSMutableData)
    }

    let target: Target
    let format: ImageEncoder.Format
    let lock = NSLock()
    var image: (CGImage, [String: Any])?
    var finalized = false

    init?(target: Target, type: String, options: [String: Any]?) {
        switch type {
        case "public.png": format = .png
        case "public.jpeg", "public.jpg":
            let quality = (options?[kCGImageDestinationLossyCompressionQuality] as? NSNumber)?.doubleValue ?? 0.9
            format = .jpeg(quality: quality)
        default: return nil
        }
        self.target = target
    }

    /// Whether an image's alpha channel carries information (not `none` or a skipped byte).
    static func hasAlpha(_ image: CGImage) -> Bool {
        ![.none, .noneSkipFirst, .noneSkipLast].contains(image.alphaInfo)
    }

    /// The pixels of an image as a pixel buffer over the image's own bytes, when its layout is
    /// one CoreVideo has.
    static func pixelBuffer(of image: CGImage) -> CVPixelBuffer? {
        let alpha = CGImageAlphaInfo(rawValue: image.bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) ?? .none
        let little = image.bitmapInfo.contains(.byteOrder32Little)
        let first = [.premultipliedFirst, .first, .noneSkipFirst].contains(alpha)
        let format: OSType
        switch (image.bitsPerPixel, first, little) {
        case (24, _, _): format = kCVPixelFormatType_24RGB
        case (32, true, true): format = kCVPixelFormatType_32BGRA
        case (32, true, false): format = kCVPixelFormatType_32ARGB
        case (32, false, true): format = kCVPixelFormatType_32ABGR
        case (32, false, false): format = kCVPixelFormatType_32RGBA
        default: return nil
        }
        guard image.bitsPerComponent == 8, let data = image.dataProvider?.data else { return nil }
        let plane = CVPixelBufferPlane(baseAddress: UnsafeMutableRawPointer(mutating: data.bytes), width: image.width,
                                       height: image.height, bytesPerRow: image.bytesPerRow)
        return CVBuffer(pixelFormatType: format, width: image.width, height: image.height, planes: [plane],
                        release: { withExtendedLifetime(data) {} })
    }
}

/// A destination that writes one image of `type` ("public.png" or "public.jpeg") to `url`;
/// nil for another type. The file is written by `CGImageDestinationFinalize`.
///
/// Linux addition: ImageIO's on Apple platforms, provided by OpenAVFoundation here.
public func CGImageDestinationCreateWithURL(_ url: CFURL, _ type: CFString, _ count: Int, _ options: CFDictionary?) -> CGImageDestination? {
    guard count == 1 else { return nil }
    return CGImageDestination(target: .file(url as URL), type: type, options: options as? [String: Any])
}

/// A destination that appends one encoded image of `type` to `data`.
///
/// Linux addition: ImageIO's on Apple platforms, provided by OpenAVFoundation here.
public func CGImageDestinationCreateWithData(_ data: CFMutableData, _ type: CFString, _ count: Int, _ options: CFDictionary?) -> CGImageDestination? {
    guard count == 1 else { return nil }
    return CGImageDestination(target: .data(data), type: type, options: options as? [String: Any])
}

/// Sets the image the destination writes.
///
/// Linux addition: ImageIO's on Apple platforms, provided by OpenAVFoundation here.
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    idst.lock.withLock { idst.image = (image, properties as? [String: Any] ?? [:]) }
}

/// Encodes the image and writes it; false when there is no image, it cannot be encoded, or
/// the file cannot be written.
///
/// Linux addition: ImageIO's on Apple platforms, provided by OpenAVFoundation here.
@discardableResult
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool {
    idst.lock.withLock {
        guard !idst.finalized, let (image, _) = idst.image,
              let pixels = CGImageDestination.pixelBuffer(of: image),
              let encoded = try? ImageEncoder.encode(pixels, as: idst.format, keepsAlpha: CGImageDestination.hasAlpha(image))
        else { return false }
        idst.finalized = true
        switch idst.target {
        case .file(let url): return (try? encoded.write(to: url)) != nil
        case .data(let data):
            data.append(encoded)
            return true
        }
    }
}
