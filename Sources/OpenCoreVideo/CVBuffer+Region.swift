extension CVBuffer {
    /// A buffer viewing a rectangle of this one's pixels, sharing their memory (this buffer stays
    /// alive as long as the view). For subsampled formats the rectangle's origin is rounded down
    /// to the subsampling grid. Nil when the rectangle is empty or reaches outside.
    package func region(x: Int, y: Int, width: Int, height: Int) -> CVPixelBuffer? {
        guard width > 0, height > 0, x >= 0, y >= 0, x + width <= self.width, y + height <= self.height,
              let layout = CVPixelFormatDescription.description(for: pixelFormatType),
              layout.planes.count == planes.count else { return nil }
        let views = zip(layout.planes, planes).map { shape, plane in
            let column = x / shape.horizontalSubsampling / shape.blockWidth * shape.bytesPerBlock
            let row = y / shape.verticalSubsampling
            return CVPixelBufferPlane(baseAddress: plane.baseAddress + row * plane.bytesPerRow + column,
                                      width: shape.width(forImageWidth: width),
                                      height: shape.height(forImageHeight: height), bytesPerRow: plane.bytesPerRow)
        }
        return CVBuffer(pixelFormatType: pixelFormatType, width: width, height: height, planes: views,
                        release: { withExtendedLifetime(self) {} })
    }
}
