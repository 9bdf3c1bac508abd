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
                while let sample = output.copyNextSampleBuffer() { Touch.bytes(of: sample) }
            }
        }
    }
    return 0
}
