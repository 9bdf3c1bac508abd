import Foundation
import OpenCoreMedia

/// A source of sample buffers from an asset reader: the abstract base of the track, audio mix
/// and video composition outputs.
open class AVAssetReaderOutput: NSObject, @unchecked Sendable {
    let lock = NSLock()
    /// The reader the output was added to.
    weak var reader: AVAssetReader?
    /// The pipeline doing the work, made when reading starts (guarded by `lock`).
    var pipeline: (any SamplePipeline)?
    /// Whether the pipeline has delivered its last sample (guarded by `lock`).
    var exhausted = false
    private var configurationIsFinal = false

    /// The media type of the samples the output delivers.
    open var mediaType: AVMediaType { Misuse.fail(.readerOutputIsAbstract) }

    /// Whether sample buffers are copies the caller may modify (the default) rather than
    /// possibly shared with the decoder. Set it to false for speed when you only read them.
    ///
    /// Here a decoded frame the decoder keeps no reference to is handed out without a copy
    /// either way.
    open var alwaysCopiesSampleData: Bool = true

    /// Whether `reset(forReadingTimeRanges:)` may be used: set before reading starts.
    open var supportsRandomAccess: Bool = false

    /// Why the output cannot be added, or nil when it can.
    var additionProblem: String? { nil }

    /// The tracks the output reads.
    var tracks: [AVAssetTrack] { [] }

    /// The streams of the file the output reads (none for a composition's tracks, which read
    /// their segments' files themselves).
    var streamIndices: [Int] { tracks.map(\.contents.streamIndex).filter { $0 >= 0 } }

    /// Whether the output decodes what it reads (all but a passthrough track output).
    var decodes: Bool { true }

    /// Makes the started pipeline of a reading pass over `timeRange`; `session` is the pass
    /// over the asset's file, nil for a composition.
    func makePipeline(timeRange: CMTimeRange, session: ReadingSession?) throws(AVError) -> any SamplePipeline {
        Misuse.fail(.readerOutputIsAbstract)
    }

    /// The next sample buffer, or nil when there are no more (or reading failed or was
    /// cancelled; the reader's `status` and `error` say which).
    open func copyNextSampleBuffer() -> CMSampleBuffer? {
        guard let reader else { Misuse.fail(.sampleBufferWithoutReader) }
        return reader.nextSampleBuffer(for: self)
    }

    /// Starts reading these time ranges (in increasing order, not overlapping) after the
    /// output delivered its last sample; needs `supportsRandomAccess`.
    open func reset(forReadingTimeRanges timeRanges: [NSValue]) {
        Misuse.check(supportsRandomAccess, .resetWithoutRandomAccess)
        Misuse.check(!lock.withLock { configurationIsFinal }, .resetAfterConfigurationFinal)
        guard let reader else { Misuse.fail(.resetWithoutReader) }
        reader.reset(self, timeRanges: timeRanges.map(\.timeRangeValue))
    }

    /// Says no more `reset(forReadingTimeRanges:)` will come, so the output may end.
    open func markConfigurationAsFinal() {
        lock.withLock { configurationIsFinal = true }
        reader?.outputBecameFinal(self)
    }

    /// Whether the output will be reset no more.
    var isConfigurationFinal: Bool { lock.withLock { configurationIsFinal || !supportsRandomAccess } }
}
