import Foundation

/// How the audio tracks of an asset are mixed: per-track volume and ramps (the guide's
/// *Editing* chapter).
///
/// Differs from Apple, for now: audio mixes are not applied yet. The type exists so that
/// `AVAssetExportSession.audioMix` and the code that sets it compile; an export given a mix
/// fails with `AVError.operationNotSupportedForAsset`.
open class AVAudioMix: NSObject, @unchecked Sendable {
    /// An empty audio mix.
    public override init() {
        super.init()
    }
}
