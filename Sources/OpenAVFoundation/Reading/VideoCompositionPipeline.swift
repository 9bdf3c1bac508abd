import Foundation
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// The frames of a video composition: one every `frameDuration` over the reading range, each
/// drawn by the built-in compositor (pixman, through `FrameCompositor`) from the instruction in
/// effect, or composed by a custom compositor. Each source track is read once, whatever the
/// number of instructions that use it; a track's frame holds until its next one.
///
/// For the built-in compositor the sources stay in the decoder's own 4:2:0 layout: a frame
/// that is one untouched picture is handed out as decoded (no conversion when the output takes
/// that layout, as an export's encoder does), and only pictures that are drawn are converted
/// to BGRA.
final class VideoCompositionPipeline: SamplePipeline {
    /// One source track's frames, read ahead by one.
    private final class Source {
        let track: AVAssetTrack
        let pipeline: any SamplePipeline
        /// Where the track has media: its edits that are not empty.
        let media: [CMTimeRange]
        var current: CMSampleBuffer?
        var upcoming: CMSampleBuffer?
        var ended = false

        init(track: AVAssetTrack, pipeline: any SamplePipeline) {
            self.track = track
            self.pipeline = pipeline
            media = track.segments.filter { !$0.isEmpty }.map(\.timeMapping.target)
        }

        /// The track's picture at `time`: its last frame starting at or before it, while the
        /// track has media there.
        func picture(at time: CMTime) throws(AVError) -> CVPixelBuffer? {
            _ = try frame(after: time)
            guard let current, media.contains(where: { $0.containsTime(time) }) else { return nil }
            return current.imageBuffer
        }

        /// The track's first frame starting after `time` (its first frame when nil), read
        /// ahead; the frames before it pass; nil at the end.
        func frame(after time: CMTime?) throws(AVError) -> CMSampleBuffer? {
            while true {
                if upcoming == nil, !ended {
                    upcoming = pipeline.next()
                    if upcoming == nil {
                        if let failure = pipeline.failure { throw failure }
                        ended = true
                    }
                }
                guard let next = upcoming else { return nil }
                guard let time, next.presentationTimeStamp <= time else { return next }
                current = next
                upcoming = nil
            }
        }
    }

    private let composition: AVVideoComposition
    /// The colour the composition asks for (`colorPrimaries`, …), and that filled in from the
    /// first source track's: what drawn frames are tagged with.
    private let askedColor: ColorDescription
    private let drawnColor: ColorDescription
    private let instructions: [any AVVideoCompositionInstructionProtocol]
    private let sources: [CMPersistentTrackID: Source]
    private let context: AVVideoCompositionRenderContext
    private let custom: (any AVVideoCompositing)?
    private let settings: VideoOutputSettings
    private let compositor = FrameCompositor()
    private let converter = PixelConverter()
    private let pools = PixelBufferPools()
    /// Source pictures converted to BGRA for drawing: a geometry or two at a time.
    private let drawingPools = PixelBufferPools(capacity: 2)
    private var sampleMaker = ImageSampleMaker()
    private let start: CMTime
    private let end: CMTime
    private let frameDuration: CMTime
    private var index: Int32 = 0
    /// The source whose frame times the composed frames follow (`sourceTrackIDForFrameTiming`),
    /// and the time of the last frame composed.
    private let timing: Source?
    private var lastTime: CMTime?
    private(set) var failure: AVError?

    /// Reads `tracks` over `timeRange` (the shared `session` for a file's tracks) and composes
    /// them by `composition`, handing out frames as `settings` asks (32-bit BGRA by default).
    init(composition: AVVideoComposition, tracks: [AVAssetTrack], custom: (any AVVideoCompositing)?, settings: VideoOutputSettings,
         timeRange: CMTimeRange, session: ReadingSession?) throws(AVError) {
        self.composition = composition
        self.custom = custom
        self.settings = settings
        instructions = composition.instructions.sorted { $0.timeRange.start < $1.timeRange.start }
        frameDuration = composition.frameDuration
        let sourceFormats = (custom?.sourcePixelBufferAttributes?[kCVPixelBufferPixelFormatTypeKey] as? NSNumber).map { [$0.uint32Value] }
            ?? (custom == nil ? [kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_32BGRA]
                : [kCVPixelFormatType_32BGRA])
        let renderFormat = (custom?.requiredPixelBufferAttributesForRenderContext[kCVPixelBufferPixelFormatTypeKey] as? NSNumber)?.uint32Value
            ?? kCVPixelFormatType_32BGRA
        context = AVVideoCompositionRenderContext(videoComposition: composition, pixelFormat: renderFormat)
        let sourceSettings: VideoOutputSettings
        do {
            sourceSettings = try VideoOutputSettings([kCVPixelBufferPixelFormatTypeKey: sourceFormats])
        } catch {
            throw AVError(.unsupportedOutputSettings, reason: "the compositor's source pixel format \(sourceFormats) is not supported")
        }
        var sources: [CMPersistentTrackID: Source] = [:]
        for track in tracks {
            let pipeline = try track.makeReadingPipeline(mode: .video(sourceSettings), timeRange: timeRange, session: session,
                                                         alwaysCopiesSampleData: false, algorithm: .spectral)
            sources[track.trackID] = Source(track: track, pipeline: pipeline)
        }
        self.sources = sources
        askedColor = ColorDescription(primaries: composition.colorPrimaries, transferFunction: composition.colorTransferFunction,
                                      yCbCrMatrix: composition.colorYCbCrMatrix)
        let sourceColor = tracks.sorted { $0.trackID < $1.trackID }.lazy.compactMap(\.contents.formatDescription).first
            .map(ColorDescription.init(of:)) ?? ColorDescription()
        drawnColor = askedColor.filled(from: sourceColor)
        timing = sources[composition.sourceTrackIDForFrameTiming]
        // Without a timing track, frames are made a frame duration apart: without a positive
        // one, reading would never end.
        guard timing != nil || (frameDuration.isNumeric && frameDuration > .zero) else {
            throw AVError(.invalidVideoComposition, reason: "the video composition's frameDuration must be a positive time")
        }
        start = max(timeRange.start, .zero)
        end = min(timeRange.end, tracks.map(\.timeRange.end).max() ?? .zero)
        custom?.renderContextChanged(context)
    }

    func next() -> CMSampleBuffer? {
        guard failure == nil else { return nil }
        do throws(AVError) {
            guard let (time, duration) = try nextTime() else { return nil }
            guard let instruction = instructions.last(where: { $0.timeRange.containsTime(time) }) else {
                throw AVError(.invalidVideoComposition, reason: "no instruction covers \(time.seconds) s")
            }
            guard let picture = try compose(instruction, at: time) else { return next() }
            return try sampleMaker.sample(try delivered(picture), time: time, duration: duration)
        } catch {
            failure = error
            return nil
        }
    }

    /// The time and duration of the next composed frame: the next frame of the timing track,
    /// or the next step of `frameDuration`; nil past the end.
    private func nextTime() throws(AVError) -> (CMTime, CMTime)? {
        guard let timing else {
            let time = start + CMTimeMultiply(frameDuration, multiplier: index)
            guard time < end else { return nil }
            index += 1
            return (time, frameDuration)
        }
        guard let frame = try timing.frame(after: lastTime) else { return nil }
        // The frame reading starts with may begin before the range: it is shown from its start.
        let time = max(frame.presentationTimeStamp, start)
        guard time < end else { return nil }
        lastTime = time
        let duration = frame.duration.isNumeric && frame.duration > .zero ? frame.duration : frameDuration
        return (time, duration)
    }

    /// The frame at `time`: handed through, drawn, or composed by the custom compositor; nil
    /// when a custom compositor cancelled it.
    private func compose(_ instruction: any AVVideoCompositionInstructionProtocol, at time: CMTime) throws(AVError) -> CVPixelBuffer? {
        if instruction.passthroughTrackID != kCMPersistentTrackID_Invalid, let passed = sources[instruction.passthroughTrackID] {
            if let picture = try passed.picture(at: time) { return picture }
        }
        if let custom { return try request(custom, instruction, at: time) }
        guard let builtIn = instruction as? AVVideoCompositionInstruction else {
            throw AVError(.invalidVideoComposition, reason: "the built-in compositor draws AVVideoCompositionInstructions; give a customVideoCompositorClass for other instructions")
        }
        var layers: [(picture: CVPixelBuffer, transform: CGAffineTransform, opacity: Float, crop: CGRect?)] = []
        for layer in builtIn.layerInstructions {
            guard let picture = try sources[layer.trackID]?.picture(at: time) else { continue }
            let state = layer.state(at: time)
            layers.append((picture, state.transform.concatenating(context.renderTransform), state.opacity, state.crop))
        }
        // An untouched picture that fills the frame, in the colour asked for, is handed out as it is.
        if let top = layers.first, top.opacity >= 1, top.crop == nil, top.transform == .identity,
           top.picture.width == Int(context.size.width), top.picture.height == Int(context.size.height),
           askedColor.isMet(by: ColorDescription(attachmentsOf: top.picture)) {
            return top.picture
        }
        guard let canvas = context.newPixelBuffer() else {
            throw AVError(.outOfMemory, reason: "cannot allocate a \(Int(context.size.width))x\(Int(context.size.height)) frame")
        }
        var drawn: [CVPixelBuffer] = []
        for layer in layers.reversed() { drawn.append(try bgra(layer.picture)) }
        compositor.begin(canvas, background: Self.components(of: builtIn.backgroundColor))
        for (layer, picture) in zip(layers.reversed(), drawn) {
            compositor.draw(picture, transform: layer.transform, opacity: Double(layer.opacity), crop: layer.crop)
        }
        compositor.end()
        return canvas
    }

    /// A source picture in BGRA, for drawing: itself when it is, else converted.
    private func bgra(_ picture: CVPixelBuffer) throws(AVError) -> CVPixelBuffer {
        guard picture.pixelFormatType != kCVPixelFormatType_32BGRA else { return picture }
        guard let buffer = drawingPools.buffer(pixelFormat: kCVPixelFormatType_32BGRA, width: picture.width, height: picture.height) else {
            throw AVError(.outOfMemory, reason: "cannot allocate a \(picture.width)x\(picture.height) picture to draw")
        }
        do throws(EngineError) {
            try converter.convert(picture, into: buffer)
        } catch {
            throw AVError(error, fallback: .videoCompositorFailed)
        }
        return buffer
    }

    /// Asks the custom compositor for the frame at `time` and waits for its answer.
    private func request(_ custom: any AVVideoCompositing, _ instruction: any AVVideoCompositionInstructionProtocol,
                         at time: CMTime) throws(AVError) -> CVPixelBuffer? {
        let wanted = instruction.requiredSourceTrackIDs?.compactMap { ($0 as? NSNumber)?.int32Value } ?? Array(sources.keys)
        var frames: [CMPersistentTrackID: CVPixelBuffer] = [:]
        for trackID in wanted {
            if let picture = try sources[trackID]?.picture(at: time) { frames[trackID] = picture }
        }
        let request = AVAsynchronousVideoCompositionRequest(renderContext: context, compositionTime: time,
                                                            instruction: instruction, frames: frames)
        custom.startRequest(request)
        switch request.waitForAnswer() {
        case .frame(let picture): return picture
        case .cancelled: return nil
        case .failure(let error):
            throw AVError(.videoCompositorFailed, reason: "the custom compositor failed at \(time.seconds) s: \(error)")
        }
    }

    /// The picture in the format and size the output asks for, tagged with its colour (a
    /// custom compositor's picture that has none gets the colour drawn frames have).
    private func delivered(_ picture: CVPixelBuffer) throws(AVError) -> CVPixelBuffer {
        var color = ColorDescription(attachmentsOf: picture)
        if color.isEmpty, !drawnColor.isEmpty {
            color = drawnColor
            color.attach(to: picture)
        }
        let format = settings.pixelFormatType ?? picture.pixelFormatType
        let width = settings.width ?? picture.width, height = settings.height ?? picture.height
        if picture.pixelFormatType == format || settings.acceptedPixelFormatTypes.contains(picture.pixelFormatType),
           width == picture.width, height == picture.height {
            return picture
        }
        guard let buffer = pools.buffer(pixelFormat: format, width: width, height: height) else {
            throw AVError(.outOfMemory, reason: "cannot allocate a \(width)x\(height) pixel buffer")
        }
        do throws(EngineError) {
            try converter.convert(picture, into: buffer, destinationMatrix: color.yCbCrMatrix)
        } catch {
            throw AVError(error, fallback: .videoCompositorFailed)
        }
        color.attach(to: buffer)
        return buffer
    }

    /// Red, green, blue and alpha of a background colour (opaque black when nil).
    static func components(of color: CGColor?) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        guard let color, let components = color.components else { return (0, 0, 0, 1) }
        switch components.count {
        case 2: return (Double(components[0]), Double(components[0]), Double(components[0]), Double(components[1]))
        case 4...: return (Double(components[0]), Double(components[1]), Double(components[2]), Double(components[3]))
        default: return (0, 0, 0, 1)
        }
    }
}
