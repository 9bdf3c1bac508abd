/// One plane of pixel memory held by a `CVPixelBuffer`: where it starts and how it is laid out.
///
/// Linux addition (package access), used to wrap memory owned elsewhere (an FFmpeg frame) with
/// no copy.
package struct CVPixelBufferPlane: @unchecked Sendable {
    /// The first byte of the plane's top row.
    package var baseAddress: UnsafeMutableRawPointer
    /// Width of the plane in plane samples (half the image width for 4:2:0 chroma).
    package var width: Int
    /// Height of the plane in rows.
    package var height: Int
    /// Distance in bytes from one row to the next.
    package var bytesPerRow: Int

    /// Creates a plane description.
    package init(baseAddress: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        self.baseAddress = baseAddress
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }
}
