import OpenAVFoundation

/// Reads every byte a framework buffer holds, so that AddressSanitizer sees the memory the
/// bridges made and the optimizer keeps the reads.
public enum Touch {
    /// Every byte of a sample's data: its block buffer, or each plane of its image.
    public static func bytes(of sample: CMSampleBuffer) {
        if let block = CMSampleBufferGetDataBuffer(sample) {
            var bytes = [UInt8](repeating: 0, count: CMBlockBufferGetDataLength(block))
            CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: bytes.count, destination: &bytes)
            keep(bytes.reduce(0, &+))
        }
        if let image = CMSampleBufferGetImageBuffer(sample) { bytes(of: image) }
    }

    /// Every byte of each plane of a picture.
    public static func bytes(of picture: CVPixelBuffer) {
        var sum: UInt8 = 0
        CVPixelBufferLockBaseAddress(picture, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(picture, .readOnly) }
        let planar = CVPixelBufferIsPlanar(picture)
        for plane in 0..<max(CVPixelBufferGetPlaneCount(picture), 1) {
            guard let base = planar ? CVPixelBufferGetBaseAddressOfPlane(picture, plane) : CVPixelBufferGetBaseAddress(picture) else { continue }
            let rows = planar ? CVPixelBufferGetHeightOfPlane(picture, plane) : CVPixelBufferGetHeight(picture)
            let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(picture, plane) : CVPixelBufferGetBytesPerRow(picture)
            let data = base.assumingMemoryBound(to: UInt8.self)
            for index in 0..<(rows * stride) { sum &+= data[index] }
        }
        keep(sum)
    }

    /// Keeps the optimizer from dropping the reads.
    @inline(never) static func keep(_ value: UInt8) { _ = value }
}
