import Foundation
import MediaEngine
import OpenCoreMedia

extension CompositionEdit {
    /// A started pipeline reading the edit's source span from its file, decoded as `mode`.
    func makeSourcePipeline(mode: TrackPipeline.Mode, alwaysCopiesSampleData: Bool, deliversFirstFrame: Bool = false)
        throws(AVError) -> TrackPipeline {
        guard let source else { preconditionFailure("an empty edit has no source to read") }
        let contents: AssetContents
        switch source.assetLoader.contentsBlocking() {
        case .success(let loaded): contents = loaded
        case .failure(let error): throw error
        }
        let stream = source.contents.streamIndex
        let decodesAudio = if case .audio = mode { true } else { false }
        let session = try ReadingSession(contents: contents, streams: [stream], start: mapping.source.start, seekStream: stream,
                                         decodesAudio: decodesAudio)
        let pipeline = TrackPipeline(session: session, streamIndex: stream, mode: mode, timeRange: mapping.source,
                                     statedEnd: source.contents.statedEnd, alwaysCopiesSampleData: alwaysCopiesSampleData)
        pipeline.deliversFirstFrame = deliversFirstFrame
        try pipeline.start()
        return pipeline
    }
}
