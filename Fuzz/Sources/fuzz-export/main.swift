import Foundation
import FuzzSupport
import OpenAVFoundation

/// What `openav export` and `convert` do: the first second exported twice, passed through to
/// a QuickTime movie and re-encoded with the low-quality preset to MPEG-4. A failed export that
/// leaves its file behind is a finding too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExport(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.run(bytes, count) { url in
        let asset = AVURLAsset(url: url)
        guard (try? await asset.load(.tracks)) != nil else { return }
        let jobs: [(String, AVFileType, String)] = [
            (AVAssetExportPresetPassthrough, .mov, "passthrough.mov"),
            (AVAssetExportPresetLowQuality, .mp4, "low.mp4"),
        ]
        for (preset, fileType, name) in jobs {
            guard let session = AVAssetExportSession(asset: asset, presetName: preset) else { continue }
            let output = FuzzInput.folder.appendingPathComponent(name)
            session.outputURL = output
            session.outputFileType = fileType
            session.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
            await session.export()
            if session.status == .failed, FileManager.default.fileExists(atPath: output.path) {
                FuzzInput.finding("a failed \(preset) export left \(name) behind")
            }
        }
    }
    return 0
}
