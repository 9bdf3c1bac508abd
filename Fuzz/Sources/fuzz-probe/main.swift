import FuzzSupport
import OpenAVFoundation

/// What `openav probe` does: the asset's duration, tracks and metadata, and each track's
/// properties, loaded with `AVURLAsset`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProbe(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.run(bytes, count) { url in
        let asset = AVURLAsset(url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
        guard let (_, tracks, _) = try? await asset.load(.duration, .tracks, .commonMetadata) else { return }
        _ = try? await asset.load(.metadata, .isPlayable, .isExportable, .preferredTransform)
        for track in tracks {
            _ = try? await track.load(.formatDescriptions, .timeRange, .naturalSize, .preferredTransform,
                                      .nominalFrameRate, .estimatedDataRate, .naturalTimeScale, .languageCode, .metadata)
        }
    }
    return 0
}
