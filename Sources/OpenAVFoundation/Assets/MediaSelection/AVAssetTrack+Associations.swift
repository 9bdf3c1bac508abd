import Foundation

extension AVAssetTrack {
    /// How the track relates to others: `.chapterList` for the audio and video tracks of a
    /// movie with a QuickTime chapter track.
    ///
    /// Differs from Apple: FFmpeg does not read track references, so a chapter track is taken
    /// to be every audio and video track's chapter list (as FFmpeg's and most writers make it);
    /// the other association types are not reported, except for a movie's tracks, which
    /// report those the movie was given (`AVMutableMovieTrack.addTrackAssociation(to:type:)`).
    public var availableTrackAssociationTypes: [AVAssetTrack.AssociationType] {
        if let movieTrack = self as? AVMovieTrack, let movie = asset as? AVMovie { return movie.associationTypes(of: movieTrack) }
        return chapterTracks().isEmpty ? [] : [.chapterList]
    }

    /// The tracks associated with this one by `trackAssociationType` (its chapter track for
    /// `.chapterList`).
    public func associatedTracks(ofType trackAssociationType: AVAssetTrack.AssociationType) -> [AVAssetTrack] {
        if let movieTrack = self as? AVMovieTrack, let movie = asset as? AVMovie {
            return movie.associatedTracks(of: movieTrack, type: trackAssociationType)
        }
        return trackAssociationType == .chapterList ? chapterTracks() : []
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
