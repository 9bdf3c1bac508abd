/// How `AVMovie.writeHeader(to:fileType:options:)` treats a file that exists at the
/// destination.
///
/// Differs from Apple: the file written is always a complete, self-contained movie (the header
/// and every sample), so "adding a header" to a file means replacing a file that this movie
/// wrote or was read from; another file that exists is replaced only with
/// `truncateDestinationToMovieHeaderOnly`.
public struct AVMovieWritingOptions: OptionSet, Sendable {
    /// The options' bits.
    public let rawValue: UInt

    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The new header replaces the movie header of the destination, keeping its other data (the
    /// default, no bits set). Here: the destination may be a file the movie's sample data was
    /// to go to or the movie was read from; any other file that exists and is not empty is left
    /// alone and writing fails with `AVError.fileAlreadyExists`.
    public static let addMovieHeaderToDestination = AVMovieWritingOptions([])

    /// Whatever the destination holds is replaced. Here the file written is still
    /// self-contained (Apple's is a pure reference movie).
    public static let truncateDestinationToMovieHeaderOnly = AVMovieWritingOptions(rawValue: 1 << 0)
}
