import Foundation
import OpenCoreVideo

/// Creates a video format description from a codec type, dimensions and extensions.
@discardableResult
public func CMVideoFormatDescriptionCreate(
    allocator: CFAllocator?, codecType: CMVideoCodecType, width: Int32, height: Int32, extensions: CFDictionary?,
    formatDescriptionOut: UnsafeMutablePointer<CMVideoFormatDescription?>
) -> OSStatus {
    guard width >= 0, height >= 0 else {
        formatDescriptionOut.pointee = nil
        return kCMFormatDescriptionError_InvalidParameter
    }
    formatDescriptionOut.pointee = CMFormatDescription(
        mediaType: kCMMediaType_Video, mediaSubType: codecType, extensions: extensions,
        dimensions: CMVideoDimensions(width: width, height: height), asbd: nil,
        layoutBytes: nil, cookieBytes: nil, codecPrivateData: nil)
    return noErr
}

/// The encoded dimensions of a video format description, ignoring aspect ratio and aperture;
/// zero for other media types.
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: CMVideoFormatDescription) -> CMVideoDimensions {
    videoDesc.storedDimensions ?? CMVideoDimensions()
}

/// The clean aperture: the rectangle of the picture meant to be shown.
///
/// Without a clean aperture extension this is the whole picture. With `originIsAtTopLeft`
/// false the rectangle is measured from the bottom-left corner.
public func CMVideoFormatDescriptionGetCleanAperture(
    _ videoDesc: CMVideoFormatDescription, originIsAtTopLeft: Bool
) -> CGRect {
    videoDesc.cleanAperture(originIsAtTopLeft: originIsAtTopLeft)
}

/// The dimensions to present, after the pixel aspect ratio (which scales the width) and the
/// clean aperture, each if asked for.
public func CMVideoFormatDescriptionGetPresentationDimensions(
    _ videoDesc: CMVideoFormatDescription, usePixelAspectRatio: Bool, useCleanAperture: Bool
) -> CGSize {
    videoDesc.presentationDimensions(usePixelAspectRatio: usePixelAspectRatio, useCleanAperture: useCleanAperture)
}

extension CMFormatDescription {
    /// Whether the description describes `imageBuffer`: same pixel format and dimensions (see
    /// `CMVideoFormatDescriptionMatchesImageBuffer`).
    public func matchesImageBuffer(_ imageBuffer: CVImageBuffer) -> Bool {
        CMVideoFormatDescriptionMatchesImageBuffer(self, imageBuffer: imageBuffer)
    }

    /// The encoded dimensions, ignoring aspect ratio and aperture.
    public var dimensions: CMVideoDimensions { CMVideoFormatDescriptionGetDimensions(self) }

    /// The dimensions to present, after pixel aspect ratio and clean aperture.
    public func presentationDimensions(usePixelAspectRatio: Bool = true, useCleanAperture: Bool = true) -> CGSize {
        let full = dimensions
        var size = CGSize(width: Double(full.width), height: Double(full.height))
        if useCleanAperture {
            size = cleanAperture(originIsAtTopLeft: true).size
        }
        if usePixelAspectRatio, let ratio = pixelAspectRatio, ratio.vertical > 0, ratio.horizontal > 0 {
            size.width = size.width * CGFloat(ratio.horizontal / ratio.vertical)
        }
        return size
    }

    /// The clean aperture rectangle; the whole picture when there is no clean aperture extension.
    public func cleanAperture(originIsAtTopLeft: Bool) -> CGRect {
        let full = dimensions
        let fullWidth = Double(full.width), fullHeight = Double(full.height)
        guard let aperture = storedExtensions?.object(forKey: NSString(string: kCMFormatDescriptionExtension_CleanAperture))
                as? [String: Any],
              let width = Self.number(aperture, kCMFormatDescriptionKey_CleanApertureWidth,
                                      kCMFormatDescriptionKey_CleanApertureWidthRational),
              let height = Self.number(aperture, kCMFormatDescriptionKey_CleanApertureHeight,
                                       kCMFormatDescriptionKey_CleanApertureHeightRational)
        else {
            return CGRect(x: 0, y: 0, width: fullWidth, height: fullHeight)
        }
        let horizontal = Self.number(aperture, kCMFormatDescriptionKey_CleanApertureHorizontalOffset,
                                     kCMFormatDescriptionKey_CleanApertureHorizontalOffsetRational) ?? 0
        let vertical = Self.number(aperture, kCMFormatDescriptionKey_CleanApertureVerticalOffset,
                                   kCMFormatDescriptionKey_CleanApertureVerticalOffsetRational) ?? 0
        // Offsets move the aperture's center away from the picture's center.
        let x = (fullWidth - width) / 2 + horizontal
        let yFromTop = (fullHeight - height) / 2 + vertical
        let y = originIsAtTopLeft ? yFromTop : fullHeight - yFromTop - height
        return CGRect(x: x, y: y, width: width, height: height)
    }

    private var pixelAspectRatio: (horizontal: Double, vertical: Double)? {
        guard let ratio = storedExtensions?.object(forKey: NSString(string: kCMFormatDescriptionExtension_PixelAspectRatio))
                as? [String: Any],
              let horizontal = Self.number(ratio, kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing, nil),
              let vertical = Self.number(ratio, kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing, nil)
        else { return nil }
        return (horizontal, vertical)
    }

    /// A number stored under `key`, or as a `[numerator, denominator]` pair under `rationalKey`.
    static func number(_ dictionary: [String: Any], _ key: String, _ rationalKey: String?) -> Double? {
        if let value = dictionary[key], let number = doubleValue(value) { return number }
        if let rationalKey, let pair = dictionary[rationalKey] as? [Any], pair.count == 2,
           let numerator = doubleValue(pair[0]), let denominator = doubleValue(pair[1]), denominator != 0 {
            return numerator / denominator
        }
        return nil
    }

    static func doubleValue(_ value: Any) -> Double? {
        switch value {
        case let number as NSNumber: return number.doubleValue
        case let int as Int: return Double(int)
        case let double as Double: return double
        case let int32 as Int32: return Double(int32)
        case let float as Float: return Double(float)
        default: return nil
        }
    }
}
