import Foundation
import HostSystem

/// How the audio tracks of an asset are mixed: a volume (constant or ramping) for each track,
/// applied by `AVAssetReaderAudioMixOutput`, `AVAssetExportSession` and `AVPlayerItem` (the
/// guide's *Editing* chapter).
open class AVAudioMix: NSObject, @unchecked Sendable {
    /// The parameters (`inputParameters`, settable in the mutable subclass).
    @Locked var parameters: [AVAudioMixInputParameters] = []

    /// An audio mix with no parameters: every track at full volume.
    public required override init() {
        super.init()
    }

    /// The volume settings of each track mixed.
    open var inputParameters: [AVAudioMixInputParameters] { parameters }

    /// The parameters of a track, or nil.
    func parameters(forTrackID trackID: CMPersistentTrackID) -> AVAudioMixInputParameters? {
        inputParameters.first { $0.trackID == trackID }
    }

    /// An immutable copy, with copies of the parameters (later changes to them do not reach it).
    open override func copy() -> Any { copied(as: AVAudioMix.self) }

    /// A mutable copy.
    open override func mutableCopy() -> Any { copied(as: AVMutableAudioMix.self) }

    private func copied(as type: AVAudioMix.Type) -> AVAudioMix {
        let copy = type.init()
        copy.parameters = inputParameters.compactMap { $0.copy() as? AVAudioMixInputParameters }
        return copy
    }
}
