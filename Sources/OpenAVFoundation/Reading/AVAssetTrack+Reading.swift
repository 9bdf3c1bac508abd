import Foundation
import MediaEngine
import OpenCoreMedia

extension AVAssetTrack {
    /// A started pipeline delivering the track over `timeRange` as `mode` asks: from the
    /// reading session's pass over the file, or, for a composition track, from its edits'
    /// source files (decoded only; `algorithm` stretches time-scaled sound). `endsAfterFirstFrame`
    /// (a file's track only) drains the decoder after the first packet, whose frame is all that
    /// is wanted.
    func makeReadingPipeline(mode: TrackPipeline.Mode, timeRange: CMTimeRange, session: ReadingSession?,
                             alwaysCopiesSampleData: Bool, deliversFirstFrame: Bool = false, endsAfterFirstFrame: Bool = false,
                             algorithm: AVAudioTimePitchAlgorithm) throws(AVError) -> any SamplePipeline {
        if let composed = self as? AVCompositionTrack {
            let edits = composed.own.withLock { $0.edits.edits(overlapping: timeRange) }
            switch mode {
            case .passthrough where mediaType == .subtitle || mediaType == .text:
                // Cues stand alone: each is placed where its edit presents it, as stored.
                return CompositionSamplePipeline(edits: edits, mode: mode, alwaysCopiesSampleData: alwaysCopiesSampleData,
                                                 deliversFirstFrame: false)
            case .passthrough:
                throw AVError(.operationNotSupportedForAsset, reason: Self.compositionPassthroughProblem)
            case .video:
                return CompositionSamplePipeline(edits: edits, mode: mode, alwaysCopiesSampleData: alwaysCopiesSampleData,
                                                 deliversFirstFrame: deliversFirstFrame)
            case .audio(let format):
                let float = PCMFormat(sampleRate: format.sampleRate, channelCount: format.channelCount, bitsPerChannel: 32, isFloat: true)
                let sound = CompositionAudioPipeline(edits: edits, format: float, algorithm: algorithm)
                return format == float ? sound : MixPipeline(inputs: [sound], mixFormat: float, output: format)
            }
        }
        guard let session else { preconditionFailure("a file track is read through a reading session") }
        let pipeline = TrackPipeline(session: session, streamIndex: contents.streamIndex, mode: mode, timeRange: timeRange,
                                     statedEnd: contents.statedEnd, alwaysCopiesSampleData: alwaysCopiesSampleData)
        pipeline.deliversFirstFrame = deliversFirstFrame
        pipeline.endsAfterFirstFrame = endsAfterFirstFrame
        try pipeline.start()
        return pipeline
    }

    /// Why a composition track cannot be read as stored.
    static let compositionPassthroughProblem =
        "composition video and audio tracks are read decoded: give the output pixel or PCM settings (only subtitle and text tracks pass through)"
}
