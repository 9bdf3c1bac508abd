import Foundation

/// Where the sample data added to a movie or one of its tracks goes: a file URL
/// (`AVMutableMovie.defaultMediaDataStorage`, `AVMutableMovieTrack.mediaDataStorage`).
///
/// Differs from Apple: the sample data is not written to the storage file as it is inserted or
/// appended. `AVMovie.writeHeader(to:fileType:options:)` writes it, with the header, into the
/// file it makes, which is always self-contained. Name the same URL here and there (as Apple's
/// examples do) and the result is the same file Apple's framework makes.
open class AVMediaDataStorage: NSObject, @unchecked Sendable {
    private let storageURL: URL

    /// A storage for sample data at `URL` (a file URL). `options`: no keys are defined.
    public init(url URL: URL, options: [String: Any]? = nil) {
        storageURL = URL
        super.init()
    }

    /// The URL the storage was made with.
    open func url() -> URL? { storageURL }
}
