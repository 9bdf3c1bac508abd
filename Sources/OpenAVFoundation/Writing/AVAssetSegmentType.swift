/// The kind of a segment an `AVAssetWriter` hands to its delegate.
public enum AVAssetSegmentType: Int, Sendable {
    /// The initialization segment: the movie header (`ftyp` and `moov`), without samples.
    case initialization = 1
    /// A segment of samples (a `moof` and its `mdat`) that plays after the initialization
    /// segment without the segments before it.
    case separable = 2
}
