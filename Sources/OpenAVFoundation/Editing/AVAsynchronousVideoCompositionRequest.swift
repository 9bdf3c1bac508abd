import Foundation
import HostSystem
import OpenCoreMedia
import OpenCoreVideo

/// One frame a custom compositor is asked to compose: the time, the instruction in effect,
/// the source frames, and the ways to answer.
open class AVAsynchronousVideoCompositionRequest: NSObject, @unchecked Sendable {
    /// How the request ended.
    enum Outcome {
        case frame(CVPixelBuffer)
        case failure(Error)
        case cancelled
    }

    /// Where to render.
    public let renderContext: AVVideoCompositionRenderContext
    /// The time of the frame on the composition's timeline.
    public let compositionTime: CMTime
    /// The IDs of the tracks with a source frame at this time.
    public let sourceTrackIDs: [NSNumber]
    /// The instruction in effect at `compositionTime`.
    public let videoCompositionInstruction: any AVVideoCompositionInstructionProtocol

    private let frames: [CMPersistentTrackID: CVPixelBuffer]
    @Locked private var outcome: Outcome? = nil
    private let answered = DispatchSemaphore(value: 0)

    init(renderContext: AVVideoCompositionRenderContext, compositionTime: CMTime,
         instruction: any AVVideoCompositionInstructionProtocol, frames: [CMPersistentTrackID: CVPixelBuffer]) {
        self.renderContext = renderContext
        self.compositionTime = compositionTime
        videoCompositionInstruction = instruction
        self.frames = frames
        sourceTrackIDs = frames.keys.sorted().map { NSNumber(value: $0) }
        super.init()
    }

    /// The source frame of a track at this time, or nil when the track has none.
    open func sourceFrame(byTrackID trackID: CMPersistentTrackID) -> CVPixelBuffer? { frames[trackID] }

    /// Answers with the composed frame.
    open func finish(withComposedVideoFrame composedVideoFrame: CVPixelBuffer) { answer(.frame(composedVideoFrame)) }

    /// Answers that the frame could not be composed.
    open func finish(with error: Error) { answer(.failure(error)) }

    /// Answers a request the compositor was asked to cancel.
    open func finishCancelledRequest() { answer(.cancelled) }

    private func answer(_ value: Outcome) {
        let first = $outcome.withLock { outcome -> Bool in
            guard outcome == nil else { return false }
            outcome = value
            return true
        }
        Misuse.check(first, .compositionRequestFinishedTwice)
        answered.signal()
    }

    /// Waits for the compositor's answer.
    func waitForAnswer() -> Outcome {
        answered.wait()
        return outcome ?? .cancelled
    }
}
