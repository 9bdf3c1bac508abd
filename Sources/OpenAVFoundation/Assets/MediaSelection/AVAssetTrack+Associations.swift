import Foundation

extension AVAssetTrack {
    /// How the track relates to others: `.chapterList` for the audio and video tracks of a
    /// movie with a QuickTime chapter track.
    ///
    /// Differs from Apple: FFmpeg does not read track references, so a chapter track is taken
    /// to be every audio and video track's chapter list (as FFmpeg's and most writers make it);
    /// the other association types are not reported.
    public var availableTrackAssociationTypes: [AVAssetTrack.AssociationType] {
        chapterTracks().isEmpty ? [] : [.chapterList]
    }

    /// The tracks associated with this one by `trackAssociationType` (its chapter track for
    /// `.chapterList`).
    public func associatedTracks(ofType trackAssociationType: AVAssetTrack.AssociationType) -> [AVAssetTrack] {
        trackAssociationType == .chapterList ? chapterTracks() : []
    }

    /// The tracks associated with this one by `trackAssociationType`, loaded without blocking.
    public func loadAssociatedTracks(ofType trackAssociationType: AVAssetTrack.AssociationType) async throws -> [AVAssetTrack] {
        associatedTracks(ofType: trackAssociationType)
    }

    /// The asset's chapter tracks, when this is one of its audio or video tracks.
    private func chapterTracks() -> [AVAssetTrack] {
        guard mediaType == .video || mediaType == .audio, let asset else { return [] }
        return asset.tracks.filter { $0.contents.isChapterList }
    }
}

extension AVPartialAsyncProperty where Root: AVAssetTrack {
    /// How the track relates to others.
    public static var availableTrackAssociationTypes: AVAsyncProperty<Root, [AVAssetTrack.AssociationType]> {
        .track("availableTrackAssociationTypes") { $0.availableTrackAssociationTypes }
    }
}
