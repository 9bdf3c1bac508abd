import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// An asset made of spans of other assets: tracks whose segments come from source files. A
/// composition is read by `AVAssetReader`, shown by `AVAssetImageGenerator`, exported by
/// `AVAssetExportSession` and played by `AVPlayerItem` like a file (the guide's *Editing*
/// chapter).
///
/// Differs from Apple: `tracks`, `tracks(withMediaType:)`, `tracks(withMediaCharacteristic:)`
/// and their `loadTracks` forms are typed `[AVAssetTrack]` (Swift cannot narrow an inherited
/// member's array type); their elements are `AVCompositionTrack`s (`AVMutableCompositionTrack`s
/// in a mutable composition). `track(withTrackID:)` and `loadTrack(withTrackID:)` are narrowed,
/// as Apple's are.
/// Composition tracks are read decoded: passthrough reading (nil output settings) and the
/// passthrough export preset are not available for compositions.
open class AVComposition: AVAsset, @unchecked Sendable {
    /// Finds the composition from its loader, which is made before the composition exists.
    private final class Reference: @unchecked Sendable {
        weak var composition: AVComposition?
    }

    /// The tracks, and the size set for the composition (zero when none is).
    struct State {
        var tracks: [AVCompositionTrack] = []
        var authoredSize = CGSize.zero
    }

    /// The tracks and size, behind one lock (changed by the mutable subclass).
    let state = Locked(State())

    /// The options the composition's source assets are opened with.
    public let urlAssetInitializationOptions: [String: Any]

    init(sourceOptions options: [String: Any]) {
        urlAssetInitializationOptions = options
        let reference = Reference()
        super.init(loader: AssetLoader(live: {
            guard let composition = reference.composition else { return AssetContents(composedOf: []) }
            return AssetContents(composedOf: composition.compositionTracks.map(\.contents))
        }))
        reference.composition = self
    }

    /// The composition's tracks as composition tracks.
    var compositionTracks: [AVCompositionTrack] { state.tracks }

    override func tracks(of contents: AssetContents) -> [AVAssetTrack] { compositionTracks }

    /// The composition track with the given ID, or nil.
    open override func track(withTrackID trackID: CMPersistentTrackID) -> AVCompositionTrack? {
        compositionTracks.first { $0.trackID == trackID }
    }

    /// The composition track with the given ID, or nil (a composition has nothing to load).
    open override func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVCompositionTrack? {
        track(withTrackID: trackID)
    }

    /// The size of the composition's pictures: the size set for it, else the first video
    /// track's natural size.
    open var naturalSize: CGSize {
        let authored = state.authoredSize
        if authored != .zero { return authored }
        return compositionTracks.first { $0.mediaType == .video }?.naturalSize ?? .zero
    }

    /// An immutable copy of the composition as it stands.
    open override func copy() -> Any {
        let copied = AVComposition(sourceOptions: urlAssetInitializationOptions)
        copied.fill(from: self) { AVCompositionTrack(copying: $0, into: copied) }
        return copied
    }

    /// A mutable copy of the composition as it stands.
    open override func mutableCopy() -> Any {
        let copied = AVMutableComposition(sourceOptions: urlAssetInitializationOptions)
        copied.fill(from: self) { AVMutableCompositionTrack(copying: $0, into: copied) }
        return copied
    }

    /// Takes `other`'s size and copies of its tracks.
    private func fill(from other: AVComposition, copyTrack: (AVCompositionTrack) -> AVCompositionTrack) {
        let (tracks, size) = other.state.withLock { ($0.tracks, $0.authoredSize) }
        let copies = tracks.map(copyTrack)
        state.withLock { s in
            s.tracks = copies
            s.authoredSize = size
        }
    }
}
