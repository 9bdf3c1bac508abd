import FuzzSupport
import OpenAVFoundation

/// Every track read to its end twice: decoded (video to 32BGRA, sound to 16-bit PCM) and
/// passed through, with every byte of every sample touched, so AddressSanitizer sees the
/// buffers the bridges made.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRead(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.run(bytes, count) { url in
        let asset = AVURLAsset(url: url)
        guard let tracks = try? await asset.load(.tracks) else { return }
        for decoded in [true, false] {
            guard let reader = try? AVAssetReader(asset: asset) else { return }
            let outputs = tracks.compactMap { track -> AVAssetReaderTrackOutput? in
                let settings: [String: Any]?
                switch (decoded, track.mediaType) {
                case (true, .video): settings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
                case (true, .audio): settings = [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 16]
                case (false, _): settings = nil
                default: return nil
                }
                let output = AVAssetReaderTrackOutput(track: track, outputSettings: settings)
                guard reader.canAdd(output) else { return nil }
                reader.add(output)
                return output
            }
            guard !outputs.isEmpty, reader.startReading() else { continue }
            for output in outputs {
                while let sample = output.copyNextSampleBuffer() { touch(sample) }
            }
        }
    }
    return 0
}

/// Reads every byte of a sample's data: its block buffer, or each plane of its image.
func touch(_ sample: CMSampleBuffer) {
    var sum: UInt8 = 0
    if let block = CMSampleBufferGetDataBuffer(sample) {
        var bytes = [UInt8](repeating: 0, count: CMBlockBufferGetDataLength(block))
        CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: bytes.count, destination: &bytes)
        for byte in bytes { sum &+= byte }
    }
    if let image = CMSampleBufferGetImageBuffer(sample) {
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let planes = max(CVPixelBufferGetPlaneCount(image), 1)
        for plane in 0..<planes {
            let planar = CVPixelBufferIsPlanar(image)
            guard let base = planar ? CVPixelBufferGetBaseAddressOfPlane(image, plane) : CVPixelBufferGetBaseAddress(image) else { continue }
            let rows = planar ? CVPixelBufferGetHeightOfPlane(image, plane) : CVPixelBufferGetHeight(image)
            let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(image, plane) : CVPixelBufferGetBytesPerRow(image)
            let data = base.assumingMemoryBound(to: UInt8.self)
            for index in 0..<(rows * stride) { sum &+= data[index] }
        }
    }
    blackHole(sum)
}

/// Keeps the optimizer from dropping the reads.
@inline(never) func blackHole(_ value: UInt8) { _ = value }
