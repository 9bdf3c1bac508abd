import Foundation

/// The geometry of a buffer allocated by OpenCoreVideo: plane offsets, sizes and row strides in
/// one allocation.
struct CVPixelBufferLayout: Hashable, Sendable {
    struct PlaneLayout: Hashable, Sendable {
        var offset: Int
        var width: Int
        var height: Int
        var bytesPerRow: Int
    }

    /// Every row starts on a multiple of this many bytes, at least.
    static let minimumAlignment = 64

    let pixelFormatType: OSType
    let width: Int
    let height: Int
    let planes: [PlaneLayout]
    let byteCount: Int
    let baseAlignment: Int

    /// Computes the layout; nil for an unsupported format or a size that overflows.
    init?(description: CVPixelFormatDescription, width: Int, height: Int,
          bytesPerRowAlignment: Int?, planeAlignment: Int?) {
        let rowAlignment = Self.lcm(Self.minimumAlignment, max(1, bytesPerRowAlignment ?? 1))
        let planeStep = Self.lcm(Self.minimumAlignment, max(1, planeAlignment ?? 1))
        var offset = 0
        var planes: [PlaneLayout] = []
        for plane in description.planes {
            let planeWidth = plane.width(forImageWidth: width)
            let planeHeight = plane.height(forImageHeight: height)
            let minimum = plane.minimumBytesPerRow(forImageWidth: width)
            guard let rowBytes = Self.roundUp(minimum, to: rowAlignment),
                  let aligned = Self.roundUp(offset, to: planeStep) else { return nil }
            let (size, overflow) = rowBytes.multipliedReportingOverflow(by: planeHeight)
            guard !overflow else { return nil }
            planes.append(PlaneLayout(offset: aligned, width: planeWidth, height: planeHeight, bytesPerRow: rowBytes))
            let (end, overflow2) = aligned.addingReportingOverflow(size)
            guard !overflow2 else { return nil }
            offset = end
        }
        self.pixelFormatType = description.pixelFormatType
        self.width = width
        self.height = height
        self.planes = planes
        self.byteCount = offset
        // The allocation itself: 64 bytes, or a larger power-of-two plane alignment (up to a page).
        var base = Self.minimumAlignment
        if let requested = planeAlignment, requested > base, requested <= 4096, requested & (requested - 1) == 0 {
            base = requested
        }
        self.baseAlignment = base
    }

    private static func roundUp(_ value: Int, to multiple: Int) -> Int? {
        let (sum, overflow) = value.addingReportingOverflow(multiple - 1)
        guard !overflow else { return nil }
        return sum / multiple * multiple
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    private static func lcm(_ a: Int, _ b: Int) -> Int {
        a / gcd(a, b) * b
    }
}

/// One aligned allocation of pixel memory, freed when the last reference goes away.
final class CVPixelBufferStorage: @unchecked Sendable {
    let layout: CVPixelBufferLayout
    let bytes: UnsafeMutableRawPointer

    init(layout: CVPixelBufferLayout) {
        self.layout = layout
        self.bytes = UnsafeMutableRawPointer.allocate(byteCount: max(layout.byteCount, 1), alignment: layout.baseAlignment)
    }

    deinit {
        bytes.deallocate()
    }

    /// The planes of this storage, as a `CVPixelBuffer` describes them.
    var planes: [CVPixelBufferPlane] {
        layout.planes.map {
            CVPixelBufferPlane(baseAddress: bytes + $0.offset, width: $0.width, height: $0.height, bytesPerRow: $0.bytesPerRow)
        }
    }
}
