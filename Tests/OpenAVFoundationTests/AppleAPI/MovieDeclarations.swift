import Testing
import OpenAVFoundation

// The record of the movie-editing declarations (AVMovie, AVMutableMovie, AVMovieTrack,
// AVMutableMovieTrack, AVMediaDataStorage, AVMovieWritingOptions), spelled as Apple's Swift SDK
// spells them (developer.apple.com/documentation/avfoundation/avmovie …). Written as an Apple
// client file is: `import OpenAVFoundation` and nothing else. No media is read or written.

/// Apple's movie-editing declarations, by their Swift SDK spellings.
@Suite(.timeLimit(.minutes(5))) struct MovieAppleDeclarationTests {
    // avfoundation/avmediadatastorage, avfoundation/avmoviewritingoptions
    @Test func storageAndOptions() {
        let _: (URL, [String: Any]?) -> AVMediaDataStorage = AVMediaDataStorage.init(url:options:)
        let _: (AVMediaDataStorage) -> () -> URL? = AVMediaDataStorage.url
        let storage = AVMediaDataStorage(url: URL(fileURLWithPath: "/tmp/x.mov"))
        #expect(storage.url()?.path == "/tmp/x.mov")
        let _: AVMovieWritingOptions = .addMovieHeaderToDestination
        let _: AVMovieWritingOptions = .truncateDestinationToMovieHeaderOnly
        #expect(AVMovieWritingOptions.addMovieHeaderToDestination.rawValue == 0)
        #expect(AVMovieWritingOptions.truncateDestinationToMovieHeaderOnly.rawValue == 1)
    }

    // avfoundation/avmovie
    @Test func movie() {
        let _: (URL, [String: Any]?) -> AVMovie = AVMovie.init(url:options:)
        let _: (Data, [String: Any]?) -> AVMovie = AVMovie.init(data:options:)
        let _: KeyPath<AVMovie, URL?> = \AVMovie.url
        let _: KeyPath<AVMovie, Data?> = \AVMovie.data
        let _: KeyPath<AVMovie, AVMediaDataStorage?> = \AVMovie.defaultMediaDataStorage
        let _: (AVMovie) -> (CMPersistentTrackID) -> AVMovieTrack? = AVMovie.track(withTrackID:)
        let _: (AVMovie) -> (AVFileType) throws -> Data = AVMovie.makeMovieHeader(fileType:)
        let _: (AVMovie) -> (URL, AVFileType, AVMovieWritingOptions) throws -> Void = AVMovie.writeHeader(to:fileType:options:)
        let _: (AVMovie) -> (AVFileType) -> Bool = AVMovie.isCompatibleWithFileType(_:)
        let _: () -> [AVFileType] = AVMovie.movieTypes
        let movie = AVMovie(url: URL(fileURLWithPath: "/nonexistent/movie.mov"))
        #expect(movie.tracks(withMediaType: .video).isEmpty)
        let _: AVAsset = movie
    }

    // avfoundation/avmutablemovie
    @Test func mutableMovie() throws {
        let _: () -> AVMutableMovie = AVMutableMovie.init
        let _: (AVMovie?, [String: Any]?) throws -> AVMutableMovie = AVMutableMovie.init(settingsFrom:options:)
        let _: (URL, [String: Any]?, ()) throws -> AVMutableMovie = AVMutableMovie.init(url:options:error:)
        let _: (Data, [String: Any]?, ()) throws -> AVMutableMovie = AVMutableMovie.init(data:options:error:)
        let _: ReferenceWritableKeyPath<AVMutableMovie, AVMediaDataStorage?> = \AVMutableMovie.defaultMediaDataStorage
        let _: ReferenceWritableKeyPath<AVMutableMovie, Float> = \AVMutableMovie.preferredRate
        let _: ReferenceWritableKeyPath<AVMutableMovie, Float> = \AVMutableMovie.preferredVolume
        let _: ReferenceWritableKeyPath<AVMutableMovie, CGAffineTransform> = \AVMutableMovie.preferredTransform
        let _: ReferenceWritableKeyPath<AVMutableMovie, CMTimeScale> = \AVMutableMovie.timescale
        let _: ReferenceWritableKeyPath<AVMutableMovie, [AVMetadataItem]> = \AVMutableMovie.metadata
        let _: ReferenceWritableKeyPath<AVMutableMovie, Bool> = \AVMutableMovie.isModified
        let _: (AVMutableMovie) -> (AVMediaType, AVAssetTrack?, [String: Any]?) -> AVMutableMovieTrack?
            = AVMutableMovie.addMutableTrack(withMediaType:copySettingsFrom:options:)
        let _: (AVMutableMovie) -> ([AVAssetTrack], [String: Any]?) -> [AVMutableMovieTrack]
            = AVMutableMovie.addMutableTracksCopyingSettings(from:options:)
        let _: (AVMutableMovie) -> (AVMovieTrack) -> Void = AVMutableMovie.removeTrack(_:)
        let _: (AVMutableMovie) -> (AVAssetTrack) -> AVMutableMovieTrack? = AVMutableMovie.mutableTrack(compatibleWith:)
        let _: (AVMutableMovie) -> (CMTimeRange, AVAsset, CMTime, Bool) throws -> Void = AVMutableMovie.insertTimeRange(_:of:at:copySampleData:)
        let _: (AVMutableMovie) -> (CMTimeRange) -> Void = AVMutableMovie.insertEmptyTimeRange(_:)
        let _: (AVMutableMovie) -> (CMTimeRange) -> Void = AVMutableMovie.removeTimeRange(_:)
        let _: (AVMutableMovie) -> (CMTimeRange, CMTime) -> Void = AVMutableMovie.scaleTimeRange(_:toDuration:)
        let _: (AVMutableMovie) -> (CMPersistentTrackID) -> AVMutableMovieTrack? = AVMutableMovie.track(withTrackID:)
        // As command-line tools write it.
        let movie = AVMutableMovie()
        movie.defaultMediaDataStorage = AVMediaDataStorage(url: URL(fileURLWithPath: "/tmp/unused.mov"))
        let track = movie.addMutableTrack(withMediaType: .video, copySettingsFrom: nil)
        movie.tracks(withMediaType: .video).first?.preferredTransform = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(track?.preferredTransform == CGAffineTransform(rotationAngle: .pi / 2))
        let plain: AVMutableMovie = AVMutableMovie(url: URL(fileURLWithPath: "/nonexistent/movie.mov"), options: nil)
        #expect(plain.tracks.isEmpty)
        let copied = try AVMutableMovie(settingsFrom: movie, options: nil)
        copied.timescale = movie.timescale
    }

    // avfoundation/avmovietrack, avfoundation/avmutablemovietrack
    @Test func movieTracks() {
        let _: KeyPath<AVMovieTrack, CMTimeRange> = \AVMovieTrack.mediaPresentationTimeRange
        let _: KeyPath<AVMovieTrack, CMTimeRange> = \AVMovieTrack.mediaDecodeTimeRange
        let _: KeyPath<AVMovieTrack, Int> = \AVMovieTrack.alternateGroupID
        let _: KeyPath<AVMovieTrack, AVMediaDataStorage?> = \AVMovieTrack.mediaDataStorage
        let _: (AVMutableMovieTrack) -> (CMTimeRange, AVAssetTrack, CMTime, Bool) throws -> Void
            = AVMutableMovieTrack.insertTimeRange(_:of:at:copySampleData:)
        let _: (AVMutableMovieTrack) -> (CMTimeRange) -> Void = AVMutableMovieTrack.insertEmptyTimeRange(_:)
        let _: (AVMutableMovieTrack) -> (CMTimeRange) -> Void = AVMutableMovieTrack.removeTimeRange(_:)
        let _: (AVMutableMovieTrack) -> (CMTimeRange, CMTime) -> Void = AVMutableMovieTrack.scaleTimeRange(_:toDuration:)
        let _: (AVMutableMovieTrack) -> (CMTimeRange, CMTimeRange) -> Bool = AVMutableMovieTrack.insertMediaTimeRange(_:into:)
        let _: (AVMutableMovieTrack) -> (CMSampleBuffer, UnsafeMutablePointer<CMTime>?, UnsafeMutablePointer<CMTime>?) throws -> Void
            = AVMutableMovieTrack.append(_:decodeTime:presentationTime:)
        let _: (AVMutableMovieTrack) -> (AVMovieTrack, AVAssetTrack.AssociationType) -> Void = AVMutableMovieTrack.addTrackAssociation(to:type:)
        let _: (AVMutableMovieTrack) -> (AVMovieTrack, AVAssetTrack.AssociationType) -> Void = AVMutableMovieTrack.removeTrackAssociation(to:type:)
        let _: ReferenceWritableKeyPath<AVMutableMovieTrack, Bool> = \AVMutableMovieTrack.isEnabled
        let _: ReferenceWritableKeyPath<AVMutableMovieTrack, Bool> = \AVMutableMovieTrack.isModified
        let _: KeyPath<AVMutableMovieTrack, Bool> = \AVMutableMovieTrack.hasProtectedContent
        let _: ReferenceWritableKeyPath<AVMutableMovieTrack, String?> = \AVMutableMovieTrack.languageCode
        let _: ReferenceWritableKeyPath<AVMutableMovieTrack, String?> = \AVMutableMovieTrack.extendedLanguageTag
        let _: ReferenceWritableKeyPath<AVMutableMovieTrack, CGAffineTransform> = \AVMutableMovieTrack.preferredTransform
        let _: ReferenceWritableKeyPath<AVMutableMovieTrack, Float> = \AVMutableMovieTrack.preferredVolume
        let _: ReferenceWritableKeyPath<AVMutableMovieTrack, CMTimeScale> = \AVMutableMovieTrack.naturalTimeScale
        let _: ReferenceWritableKeyPath<AVMutableMovieTrack, Int> = \AVMutableMovieTrack.alternateGroupID
        let _: ReferenceWritableKeyPath<AVMutableMovieTrack, Int> = \AVMutableMovieTrack.layer
        let _: ReferenceWritableKeyPath<AVMutableMovieTrack, AVMediaDataStorage?> = \AVMutableMovieTrack.mediaDataStorage
        let _: AVMovieTrack.Type = AVMutableMovieTrack.self
        let _: AVAssetTrack.Type = AVMovieTrack.self
    }
}
