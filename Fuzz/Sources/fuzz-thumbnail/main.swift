import FuzzSupport
import OpenAVFoundation

/// What `openav thumbnail` does: images at the start and in the middle, one exact, turned by
/// the track's transform and scaled down, then written as a JPEG.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThumbnail(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.run(bytes, count) { url in
        let asset = AVURLAsset(url: url)
        guard let duration = try? await asset.load(.duration) else { return }
        let generator = AVAssetImageGenerator(asset: asset)
        generator.appliesPreferredTrackTransform = true
        generator.maximumSize = CGSize(width: 96, height: 0)
        let middle = duration.isNumeric ? CMTimeMultiplyByRatio(duration, multiplier: 1, divisor: 2) : .zero
        guard let (image, _) = try? await generator.image(at: .zero) else { return }
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        _ = try? await generator.image(at: middle)
        let file = FuzzInput.folder.appendingPathComponent("thumbnail.jpg")
        guard let destination = CGImageDestinationCreateWithURL(file as CFURL, "public.jpeg" as CFString, 1, nil) else { return }
        CGImageDestinationAddImage(destination, image, nil)
        _ = CGImageDestinationFinalize(destination)
    }
    return 0
}
