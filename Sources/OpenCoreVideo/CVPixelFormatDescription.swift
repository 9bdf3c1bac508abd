/// How one supported pixel format lays out its pixels: the table that `CVPixelBufferCreate`,
/// pools and the FFmpeg mapping in MediaEngine all read.
///
/// Linux addition (package access); Apple's equivalent is the dictionary returned by
/// `CVPixelFormatDescriptionCreateWithPixelFormatType`.
package struct CVPixelFormatDescription: Sendable, Hashable {
    /// One plane of a format.
    package struct Plane: Sendable, Hashable {
        /// Luma pixels per plane sample horizontally (2 for 4:2:0 and 4:2:2 chroma).
        package let horizontalSubsampling: Int
        /// Luma pixels per plane sample vertically (2 for 4:2:0 chroma).
        package let verticalSubsampling: Int
        /// Plane samples per addressable block horizontally (2 for packed 4:2:2, else 1).
        package let blockWidth: Int
        /// Bytes in one block.
        package let bytesPerBlock: Int

        /// Width of the plane, in plane samples, for an image `width` luma pixels wide
        /// (rounded up, so odd sizes keep their last chroma column).
        package func width(forImageWidth width: Int) -> Int {
            (width + horizontalSubsampling - 1) / horizontalSubsampling
        }

        /// Height of the plane, in rows, for an image `height` luma rows high (rounded up).
        package func height(forImageHeight height: Int) -> Int {
            (height + verticalSubsampling - 1) / verticalSubsampling
        }

        /// The fewest bytes a row of this plane can take.
        package func minimumBytesPerRow(forImageWidth width: Int) -> Int {
            let samples = self.width(forImageWidth: width)
            return (samples + blockWidth - 1) / blockWidth * bytesPerBlock
        }
    }

    /// The format's four-character code.
    package let pixelFormatType: OSType
    /// Whether Apple reports the format as planar (`CVPixelBufferIsPlanar`); packed formats have
    /// one storage plane but a plane count of 0.
    package let isPlanar: Bool
    /// The storage planes, in order (one for packed formats).
    package let planes: [Plane]
    /// Significant bits per component (8 or 10).
    package let bitsPerComponent: Int
    /// Whether the samples are Y'CbCr (otherwise RGB or gray).
    package let isYCbCr: Bool
    /// Whether Y'CbCr samples use the full range (otherwise video range); false for RGB and gray.
    package let isFullRange: Bool
    /// Whether the format carries an alpha channel.
    package let hasAlpha: Bool

    /// The description of `pixelFormatType`, or nil if OpenCoreVideo cannot allocate it.
    package static func description(for pixelFormatType: OSType) -> CVPixelFormatDescription? {
        table[pixelFormatType]
    }

    /// Every pixel format OpenCoreVideo can allocate.
    package static var supportedPixelFormatTypes: [OSType] {
        table.keys.sorted()
    }

    private static func packed(_ type: OSType, bytes: Int, blockWidth: Int = 1, yuv: Bool = false,
                               alpha: Bool = false) -> CVPixelFormatDescription {
        CVPixelFormatDescription(
            pixelFormatType: type, isPlanar: false,
            planes: [Plane(horizontalSubsampling: 1, verticalSubsampling: 1, blockWidth: blockWidth, bytesPerBlock: bytes)],
            bitsPerComponent: 8, isYCbCr: yuv, isFullRange: false, hasAlpha: alpha)
    }

    private static func biPlanar420(_ type: OSType, sampleBytes: Int, bits: Int, fullRange: Bool) -> CVPixelFormatDescription {
        CVPixelFormatDescription(
            pixelFormatType: type, isPlanar: true,
            planes: [
                Plane(horizontalSubsampling: 1, verticalSubsampling: 1, blockWidth: 1, bytesPerBlock: sampleBytes),
                Plane(horizontalSubsampling: 2, verticalSubsampling: 2, blockWidth: 1, bytesPerBlock: 2 * sampleBytes),
            ],
            bitsPerComponent: bits, isYCbCr: true, isFullRange: fullRange, hasAlpha: false)
    }

    private static func triPlanar420(_ type: OSType, fullRange: Bool) -> CVPixelFormatDescription {
        let chroma = Plane(horizontalSubsampling: 2, verticalSubsampling: 2, blockWidth: 1, bytesPerBlock: 1)
        return CVPixelFormatDescription(
            pixelFormatType: type, isPlanar: true,
            planes: [Plane(horizontalSubsampling: 1, verticalSubsampling: 1, blockWidth: 1, bytesPerBlock: 1), chroma, chroma],
            bitsPerComponent: 8, isYCbCr: true, isFullRange: fullRange, hasAlpha: false)
    }

    private static let table: [OSType: CVPixelFormatDescription] = {
        let all: [CVPixelFormatDescription] = [
            packed(kCVPixelFormatType_32BGRA, bytes: 4, alpha: true),
            packed(kCVPixelFormatType_32ARGB, bytes: 4, alpha: true),
            packed(kCVPixelFormatType_32RGBA, bytes: 4, alpha: true),
            packed(kCVPixelFormatType_32ABGR, bytes: 4, alpha: true),
            packed(kCVPixelFormatType_24RGB, bytes: 3),
            packed(kCVPixelFormatType_24BGR, bytes: 3),
            packed(kCVPixelFormatType_OneComponent8, bytes: 1),
            packed(kCVPixelFormatType_422YpCbCr8, bytes: 4, blockWidth: 2, yuv: true),
            packed(kCVPixelFormatType_422YpCbCr8_yuvs, bytes: 4, blockWidth: 2, yuv: true),
            biPlanar420(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, sampleBytes: 1, bits: 8, fullRange: false),
            biPlanar420(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, sampleBytes: 1, bits: 8, fullRange: true),
            biPlanar420(kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, sampleBytes: 2, bits: 10, fullRange: false),
            biPlanar420(kCVPixelFormatType_420YpCbCr10BiPlanarFullRange, sampleBytes: 2, bits: 10, fullRange: true),
            triPlanar420(kCVPixelFormatType_420YpCbCr8Planar, fullRange: false),
            triPlanar420(kCVPixelFormatType_420YpCbCr8PlanarFullRange, fullRange: true),
        ]
        return Dictionary(uniqueKeysWithValues: all.map { ($0.pixelFormatType, $0) })
    }()
}
