import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Video compositions drawn by the built-in compositor, each frame compared with ffmpeg's
/// filter graph doing the same edit (`xfade`, `perspective`, `geq`), and their validation.
@Suite(.timeLimit(.minutes(10))) struct AVVideoCompositionTests {
    static let size = (width: 320, height: 240)

    /// A 3 s 25 fps clip of `source`, with a 4-pixel black frame around the picture (so that
    /// filters which repeat the edge pixels show black there, as the compositor does);
    /// `blurred` softens the picture (smooth content, where two samplers can agree).
    static func clip(_ source: String, blurred: Bool = false) throws -> URL {
        try Fixtures.make("composition-\(source.prefix(8))\(blurred ? "-blurred" : "").mp4", [
            "-f", "lavfi", "-i", "\(source)=size=312x232:rate=25", "-t", "3", "-vf", (blurred ? "gblur=sigma=3," : "") + "pad=320:240:4:4:black",
            "-c:v", "libx264", "-crf", "12", "-pix_fmt", "yuv420p",
        ])
    }

    static func seconds(_ value: Int64, _ scale: Int32 = 1) -> CMTime { CMTime(value: value, timescale: scale) }

    /// The frames a video composition output gives for `composition` of `asset`, as BGRA bytes.
    static func read(_ asset: AVAsset, _ composition: AVVideoComposition) throws -> (times: [CMTime], frames: [[UInt8]]) {
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderVideoCompositionOutput(videoTracks: asset.tracks(withMediaType: .video),
                                                         videoSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        output.videoComposition = composition
        #expect(reader.canAdd(output))
        reader.add(output)
        #expect(reader.startReading(), "\(String(describing: reader.error))")
        var times: [CMTime] = []
        var frames: [[UInt8]] = []
        while let sample = output.copyNextSampleBuffer() {
            times.append(sample.presentationTimeStamp)
            frames.append(PixelComparison.packed(try #require(sample.imageBuffer), bytesPerPixel: 4))
        }
        #expect(reader.status == .completed, "\(String(describing: reader.error))")
        return (times, frames)
    }

    /// ffmpeg's BGRA frames of a filter graph over some inputs.
    static func ffmpeg(_ inputs: [URL], _ graph: String) throws -> [[UInt8]] {
        let data = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error"] + inputs.flatMap { ["-i", $0.path] } + [
            "-filter_complex", graph + ",format=bgra[out]", "-map", "[out]", "-fps_mode", "passthrough", "-f", "rawvideo", "-"]))
        let frameSize = size.width * size.height * 4
        return stride(from: 0, to: data.count - frameSize + 1, by: frameSize).map { Array(data[$0..<($0 + frameSize)]) }
    }

    /// Every frame within `threshold` dB of ffmpeg's.
    static func expectClose(_ ours: [[UInt8]], _ reference: [[UInt8]], threshold: Double = 35,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(ours.count == reference.count, "ours \(ours.count) frames, ffmpeg \(reference.count)", sourceLocation: sourceLocation)
        let scores = zip(ours, reference).map { PixelComparison.psnr($0, $1) }
        let worst = scores.enumerated().min { $0.element < $1.element }
        #expect((worst?.element ?? 0) >= threshold, "frame \(worst?.offset ?? -1): \(worst?.element ?? 0) dB", sourceLocation: sourceLocation)
    }

    /// Two 3 s clips overlapping by a second, the first fading out over the second: the
    /// composition, its video composition, and the two files.
    static func crossfade() throws -> (AVMutableComposition, AVMutableVideoComposition, [URL]) {
        let (a, b) = (try Self.clip("testsrc2"), try Self.clip("smptebars"))
        let composition = AVMutableComposition()
        let first = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: 1))
        let second = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: 2))
        try first.insertTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(3)),
                                  of: AVURLAsset(url: a).tracks(withMediaType: .video)[0], at: .zero)
        try second.insertTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(3)),
                                   of: AVURLAsset(url: b).tracks(withMediaType: .video)[0], at: Self.seconds(2))

        // The first clip alone, then the first fading out over the second, then the second.
        let fade = CMTimeRange(start: Self.seconds(2), duration: Self.seconds(1))
        let fadingOut = AVMutableVideoCompositionLayerInstruction(assetTrack: first)
        fadingOut.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: fade)
        let instructions = [
            (CMTimeRange(start: .zero, duration: Self.seconds(2)), [AVMutableVideoCompositionLayerInstruction(assetTrack: first)]),
            (fade, [fadingOut, AVMutableVideoCompositionLayerInstruction(assetTrack: second)]),
            (CMTimeRange(start: Self.seconds(3), duration: Self.seconds(2)), [AVMutableVideoCompositionLayerInstruction(assetTrack: second)]),
        ].map { range, layers in
            let instruction = AVMutableVideoCompositionInstruction()
            instruction.timeRange = range
            instruction.layerInstructions = layers
            return instruction
        }
        let videoComposition = AVMutableVideoComposition()
        videoComposition.renderSize = CGSize(width: 320, height: 240)
        videoComposition.frameDuration = CMTime(value: 1, timescale: 25)
        videoComposition.instructions = instructions
        return (composition, videoComposition, [a, b])
    }

    /// ffmpeg's crossfade of the two clips: xfade in planar RGB, after the same conversion to
    /// BGRA the reader makes (xfade takes no 4:2:0, and swscale's path to planar RGB resamples
    /// the chroma otherwise).
    static func xfade(_ urls: [URL]) throws -> [[UInt8]] {
        try Self.ffmpeg(urls, "[0:v]format=bgra,format=gbrp[a];[1:v]format=bgra,format=gbrp[b];[a][b]xfade=transition=fade:duration=1:offset=2")
    }

    @Test func aCrossfadeMatchesFFmpegsXfade() throws {
        let (composition, videoComposition, urls) = try Self.crossfade()
        #expect(videoComposition.isValid(for: composition, timeRange: CMTimeRange(start: .zero, duration: composition.duration),
                                         validationDelegate: nil))

        let (times, frames) = try Self.read(composition, videoComposition)
        #expect(times == (0..<125).map { CMTime(value: $0, timescale: 25) })
        let reference = try Self.xfade(urls)
        Self.expectClose(frames, reference)
    }

    /// A composition of one clip's first two seconds, and a video composition drawing it with
    /// `layer` (set up by the caller) at 320x240, 25 fps.
    static func singleLayer(_ url: URL, _ setUp: (AVMutableVideoCompositionLayerInstruction) -> Void) throws
        -> (AVMutableComposition, AVMutableVideoComposition) {
        let composition = AVMutableComposition()
        let track = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: 1))
        try track.insertTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(3)),
                                  of: AVURLAsset(url: url).tracks(withMediaType: .video)[0], at: .zero)
        let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: track)
        setUp(layer)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: Self.seconds(3))
        instruction.layerInstructions = [layer]
        let videoComposition = AVMutableVideoComposition()
        videoComposition.renderSize = CGSize(width: 320, height: 240)
        videoComposition.frameDuration = CMTime(value: 1, timescale: 25)
        videoComposition.instructions = [instruction]
        return (composition, videoComposition)
    }

    @Test func aRotationAndScaleRampMatchesFFmpegsPerspective() throws {
        let url = try Self.clip("testsrc2", blurred: true)
        // From upright to half size and turned by 30 degrees about the centre, over 2 s.
        let end = CGAffineTransform(translationX: -160, y: -120).concatenating(CGAffineTransform(scaleX: 0.5, y: 0.5))
            .concatenating(CGAffineTransform(rotationAngle: .pi / 6)).concatenating(CGAffineTransform(translationX: 160, y: 120))
        let (composition, videoComposition) = try Self.singleLayer(url) {
            $0.setTransformRamp(fromStart: .identity, toEnd: end, timeRange: CMTimeRange(start: .zero, duration: Self.seconds(2)))
        }
        let (_, frames) = try Self.read(composition, videoComposition)

        // The matrix ramps component by component, so each corner moves in a straight line:
        // ffmpeg's perspective filter sends the corners there, frame by frame (frame n, which
        // the filter counts from 1 as `in`, is at n/25 s, n/50 of the way). perspective samples
        // pixels at whole coordinates, the compositor at their centres: the corners given to it
        // are the transform of the corners moved half a pixel in, moved half a pixel back.
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: 320, y: 0), CGPoint(x: 0, y: 240), CGPoint(x: 320, y: 240)]
        let expressions = corners.enumerated().flatMap { index, corner -> [String] in
            let moved = CGPoint(x: corner.x + 0.5, y: corner.y + 0.5).applying(end)
            let (dx, dy) = (moved.x - 0.5 - corner.x, moved.y - 0.5 - corner.y)
            return ["x\(index)='\(corner.x)+(\(dx))*min((in-1)/50\\,1)'", "y\(index)='\(corner.y)+(\(dy))*min((in-1)/50\\,1)'"]
        }
        let graph = "[0:v]format=bgra,format=gbrp,perspective=" + expressions.joined(separator: ":") + ":interpolation=linear:sense=destination:eval=frame"
        let reference = try Self.ffmpeg([url], graph)
        // Two bilinear samplers on smooth (blurred) content, with their own rounding: 50 dB
        // here; a wrong matrix, a missed frame or a wrong ramp drops below 25.
        Self.expectClose(frames, reference, threshold: 45)
    }

    @Test func aCropRampMatchesFFmpegsGeq() throws {
        let url = try Self.clip("testsrc2")
        // Frame n (of 50) keeps x 2n..<320-2n, y n..<240-n: whole pixels at every frame.
        let (composition, videoComposition) = try Self.singleLayer(url) {
            $0.setCropRectangleRamp(fromStartCropRectangle: CGRect(x: 0, y: 0, width: 320, height: 240),
                                    toEndCropRectangle: CGRect(x: 100, y: 50, width: 120, height: 140),
                                    timeRange: CMTimeRange(start: .zero, duration: Self.seconds(2)))
        }
        let (_, frames) = try Self.read(composition, videoComposition)
        let inside = "gte(X\\,2*min(N\\,50))*lt(X\\,320-2*min(N\\,50))*gte(Y\\,min(N\\,50))*lt(Y\\,240-min(N\\,50))"
        let graph = "[0:v]format=bgra,format=gbrp,geq=r='\(inside)*r(X\\,Y)':g='\(inside)*g(X\\,Y)':b='\(inside)*b(X\\,Y)'"
        Self.expectClose(frames, try Self.ffmpeg([url], graph), threshold: 50)
    }

    /// Records what the validation finds, and goes on.
    final class Findings: NSObject, AVVideoCompositionValidationHandling {
        var keys: [String] = []
        var emptyRanges: [CMTimeRange] = []
        var badRanges = 0
        var badTrackIDs: [CMPersistentTrackID] = []

        func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingInvalidValueForKey key: String) -> Bool {
            keys.append(key)
            return true
        }
        func videoComposition(_ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingEmptyTimeRange timeRange: CMTimeRange) -> Bool {
            emptyRanges.append(timeRange)
            return true
        }
        func videoComposition(_ videoComposition: AVVideoComposition,
                              shouldContinueValidatingAfterFindingInvalidTimeRangeIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol) -> Bool {
            badRanges += 1
            return true
        }
        func videoComposition(_ videoComposition: AVVideoComposition,
                              shouldContinueValidatingAfterFindingInvalidTrackIDIn videoCompositionInstruction: any AVVideoCompositionInstructionProtocol,
                              layerInstruction: AVVideoCompositionLayerInstruction, asset: AVAsset) -> Bool {
            badTrackIDs.append(layerInstruction.trackID)
            return true
        }
    }

    @Test func invalidCompositionsAreReportedAndRefused() async throws {
        let url = try Self.clip("testsrc2")
        let (composition, videoComposition) = try Self.singleLayer(url) { _ in }
        let whole = CMTimeRange(start: .zero, duration: composition.duration)
        #expect(videoComposition.isValid(for: composition, timeRange: whole, validationDelegate: nil))

        // A gap at 1–1.5 s, an overlap, a layer of a track that does not exist, no size.
        let layer = AVMutableVideoCompositionLayerInstruction()
        layer.trackID = 9
        let pieces = [(0.0, 1.0, [AVMutableVideoCompositionLayerInstruction(assetTrack: composition.tracks[0])]),
                      (1.5, 2.5, [layer]), (2.0, 3.0, [])]
        videoComposition.instructions = pieces.map { start, end, layers in
            let instruction = AVMutableVideoCompositionInstruction()
            instruction.timeRange = CMTimeRange(start: CMTime(seconds: start, preferredTimescale: 600), end: CMTime(seconds: end, preferredTimescale: 600))
            instruction.layerInstructions = layers
            return instruction
        }
        videoComposition.renderSize = .zero
        let findings = Findings()
        #expect(!videoComposition.isValid(for: composition, timeRange: whole, validationDelegate: findings))
        #expect(findings.keys == ["renderSize"])
        #expect(findings.emptyRanges == [CMTimeRange(start: Self.seconds(1), end: CMTime(value: 3, timescale: 2))])
        #expect(findings.badRanges == 1)
        #expect(findings.badTrackIDs == [9])

        // Export and reading refuse it with the composition error; nothing is written.
        let session = try #require(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetMediumQuality))
        let output = ExportOracle.outputURL("invalid-composition.mp4")
        session.outputURL = output
        session.outputFileType = .mp4
        session.videoComposition = videoComposition
        await session.export()
        #expect(session.status == .failed)
        #expect((session.error as? AVError)?.code == .invalidVideoComposition)
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let reader = try AVAssetReader(asset: composition)
        let readerOutput = AVAssetReaderVideoCompositionOutput(videoTracks: composition.tracks, videoSettings: nil)
        readerOutput.videoComposition = videoComposition
        reader.add(readerOutput)
        #expect(!reader.startReading())
        #expect((reader.error as? AVError)?.code == .invalidVideoComposition)
    }

    @Test func propertiesOfAnAssetShowItUpright() async throws {
        let url = try Self.clip("testsrc2")
        let rotated = try Fixtures.make("composition-rotated.mp4", ["-i", url.path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let asset = AVURLAsset(url: rotated)
        let videoComposition = try await AVVideoComposition.videoComposition(withPropertiesOf: asset)
        #expect(videoComposition.renderSize == CGSize(width: 240, height: 320))
        #expect(videoComposition.frameDuration == CMTime(value: 1, timescale: 25))
        #expect(videoComposition.instructions.count == 1)
        #expect(videoComposition.isValid(for: asset, timeRange: CMTimeRange(start: .zero, duration: asset.duration), validationDelegate: nil))
        let mutable = AVMutableVideoComposition(propertiesOf: asset)
        #expect(mutable.renderSize == videoComposition.renderSize && mutable.instructions.count == 1)

        // The frames are ffmpeg's autorotated decode.
        let (times, frames) = try Self.read(asset, videoComposition)
        #expect(times.count == 75)
        let data = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", rotated.path, "-pix_fmt", "bgra", "-f", "rawvideo", "-"]))
        let frameSize = 240 * 320 * 4
        let reference = stride(from: 0, to: data.count - frameSize + 1, by: frameSize).map { Array(data[$0..<($0 + frameSize)]) }
        Self.expectClose(frames, reference)
    }

    /// A compositor of one's own: the negative of its one source, in BGRA.
    final class NegativeCompositor: NSObject, AVVideoCompositing {
        var sourcePixelBufferAttributes: [String: Any]? { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }
        var requiredPixelBufferAttributesForRenderContext: [String: Any] { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }
        nonisolated(unsafe) static var contexts = 0

        func renderContextChanged(_ newRenderContext: AVVideoCompositionRenderContext) { Self.contexts += 1 }

        func startRequest(_ request: AVAsynchronousVideoCompositionRequest) {
            DispatchQueue.global().async {
                guard let trackID = request.sourceTrackIDs.first?.int32Value, let source = request.sourceFrame(byTrackID: trackID),
                      let output = request.renderContext.newPixelBuffer() else {
                    return request.finish(with: AVError(.videoCompositorFailed, reason: "no source frame"))
                }
                CVPixelBufferLockBaseAddress(source, .readOnly)
                CVPixelBufferLockBaseAddress(output, [])
                let from = CVPixelBufferGetBaseAddress(source)!.assumingMemoryBound(to: UInt8.self)
                let to = CVPixelBufferGetBaseAddress(output)!.assumingMemoryBound(to: UInt8.self)
                for row in 0..<CVPixelBufferGetHeight(output) {
                    for column in 0..<CVPixelBufferGetWidth(output) {
                        let a = row * CVPixelBufferGetBytesPerRow(source) + column * 4
                        let b = row * CVPixelBufferGetBytesPerRow(output) + column * 4
                        to[b] = 255 - from[a]; to[b + 1] = 255 - from[a + 1]; to[b + 2] = 255 - from[a + 2]; to[b + 3] = 255
                    }
                }
                CVPixelBufferUnlockBaseAddress(output, [])
                CVPixelBufferUnlockBaseAddress(source, .readOnly)
                request.finish(withComposedVideoFrame: output)
            }
        }
    }

    @Test func aCustomCompositorComposesEveryFrame() throws {
        let url = try Self.clip("testsrc2")
        let (composition, videoComposition) = try Self.singleLayer(url) { _ in }
        videoComposition.customVideoCompositorClass = NegativeCompositor.self
        let (times, frames) = try Self.read(composition, videoComposition)
        #expect(times.count == 75)
        Self.expectClose(frames, try Self.ffmpeg([url], "[0:v]format=bgra,negate"), threshold: 50)
    }

    @Test func theImageGeneratorDrawsTheComposition() async throws {
        let url = try Self.clip("testsrc2")
        let (composition, videoComposition) = try Self.singleLayer(url) {
            $0.setOpacity(0.5, at: .zero)
        }
        let generator = AVAssetImageGenerator(asset: composition)
        generator.videoComposition = videoComposition
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let (image, actual) = try await generator.image(at: CMTime(value: 30, timescale: 25))
        #expect(actual == CMTime(value: 30, timescale: 25))
        // Half the picture over black: ffmpeg's frame 30 at half brightness.
        let reference = try Self.ffmpeg([url], "[0:v]format=bgra,format=gbrp,select=eq(n\\,30),colorchannelmixer=rr=0.5:gg=0.5:bb=0.5")
        #expect(PixelComparison.psnr(AVAssetImageGeneratorTests.bytes(image), reference.first ?? []) >= 45)
    }

    @Test func aPlayerShowsTheComposedFrames() async throws {
        let (composition, videoComposition, urls) = try Self.crossfade()
        let item = AVPlayerItem(asset: composition)
        item.videoComposition = videoComposition
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        item.add(output)
        let player = AVPlayer(playerItem: item)
        let reference = try Self.xfade(urls)
        #expect(item.presentationSize == CGSize(width: 320, height: 240))
        for frame in [10, 55, 62, 70, 110] {
            let time = CMTime(value: Int64(frame), timescale: 25)
            #expect(await player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero))
            var shown = CMTime.invalid
            let buffer = try #require(output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: &shown))
            #expect(shown == time)
            let psnr = PixelComparison.psnr(PixelComparison.packed(buffer, bytesPerPixel: 4), reference[frame])
            #expect(psnr >= 35, "frame \(frame): \(psnr) dB")
        }
    }

    @Test func framesFollowTheTimingTrack() throws {
        // A 24 fps clip composed at 1/30 s: every 1/30 s, or at each of the clip's frames.
        let url = try Fixtures.make("composition-24fps.mkv", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=24", "-t", "2",
                                                              "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let composition = AVMutableComposition()
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(2)), of: AVURLAsset(url: url), at: .zero)
        let videoComposition = AVMutableVideoComposition(propertiesOf: composition)
        videoComposition.frameDuration = CMTime(value: 1, timescale: 30)
        #expect(try Self.read(composition, videoComposition).times == (0..<60).map { CMTime(value: $0, timescale: 30) })
        videoComposition.sourceTrackIDForFrameTiming = composition.tracks[0].trackID
        let (times, frames) = try Self.read(composition, videoComposition)
        let expected = try AVCompositionReadingTests.frameTimes(url)
        #expect(times == expected, "ours \(times.prefix(4).map(\.seconds)) … (\(times.count)), ffprobe \(expected.prefix(4).map(\.seconds)) … (\(expected.count))")
        let reference = try Self.ffmpeg([url], "[0:v]format=bgra")
        Self.expectClose(frames, reference, threshold: 50)
    }

    // MARK: Colour

    /// A 1 s 320x240 clip of one colour, encoded and tagged with BT.601 (SD video's colour).
    static func colourClip() throws -> URL {
        try Fixtures.make("composition-colour-601.mp4", [
            "-f", "lavfi", "-i", "color=c=0xC03030:size=320x240:rate=25", "-t", "1", "-vf", "format=yuv420p",
            "-colorspace", "smpte170m", "-color_primaries", "smpte170m", "-color_trc", "smpte170m", "-c:v", "libx264",
        ])
    }

    /// ffprobe's colour tags of a file's video and ffmpeg's RGB of its first frame's centre,
    /// decoded with the matrix the file is tagged with.
    static func colour(of url: URL) throws -> (tags: [String?], centre: [Int]) {
        let video = try #require(try ExportOracle.streams(url).first { $0["codec_type"] as? String == "video" })
        let tags = ["color_space", "color_primaries", "color_transfer"].map { video[$0] as? String }
        let pixels = try Fixtures.run("ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-vf", "crop=2:2:iw/2:ih/2",
                                                 "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        return (tags, pixels.prefix(3).map(Int.init))
    }

    /// `asset` exported through `videoComposition` with the 640x480 preset into an MP4 named `name`.
    static func export(_ asset: AVAsset, _ videoComposition: AVVideoComposition, to name: String) async throws -> URL {
        let session = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPreset640x480))
        let url = ExportOracle.outputURL(name)
        session.outputURL = url
        session.outputFileType = .mp4
        session.videoComposition = videoComposition
        await session.export()
        try #require(session.status == .completed, "\(String(describing: session.error))")
        return url
    }

    @Test func theColourACompositionAsksForIsEncodedAndTagged() async throws {
        let url = try Self.colourClip()
        let asset = AVURLAsset(url: url)
        let source = try Self.colour(of: url)
        #expect(source.tags == ["smpte170m", "smpte170m", "smpte170m"])
        let videoComposition = try await AVMutableVideoComposition.videoComposition(withPropertiesOf: asset)
        videoComposition.colorPrimaries = AVVideoColorPrimaries_ITU_R_709_2
        videoComposition.colorTransferFunction = AVVideoTransferFunction_ITU_R_709_2
        videoComposition.colorYCbCrMatrix = AVVideoYCbCrMatrix_ITU_R_709_2

        // Composed frames carry the colour asked for.
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderVideoCompositionOutput(videoTracks: asset.tracks(withMediaType: .video), videoSettings: nil)
        output.videoComposition = videoComposition
        reader.add(output)
        #expect(reader.startReading())
        let frame = try #require(output.copyNextSampleBuffer()?.imageBuffer)
        #expect(CVBufferCopyAttachment(frame, kCVImageBufferYCbCrMatrixKey, nil) as? String == kCVImageBufferYCbCrMatrix_ITU_R_709_2)
        #expect(CVBufferCopyAttachment(frame, kCVImageBufferColorPrimariesKey, nil) as? String == kCVImageBufferColorPrimaries_ITU_R_709_2)
        reader.cancelReading()

        // The export is tagged BT.709 and its pixels are BT.709's: ffmpeg, decoding with the
        // file's matrix, sees the source's colour (pixels left in BT.601 but tagged BT.709
        // would come out about 13 levels off in red and green).
        let exported = try await Self.export(asset, videoComposition, to: "colour-709.mp4")
        let result = try Self.colour(of: exported)
        #expect(result.tags == ["bt709", "bt709", "bt709"])
        #expect(zip(result.centre, source.centre).allSatisfy { abs($0 - $1) <= 5 }, "ours \(result.centre), source \(source.centre)")
    }

    @Test func withoutAColourTheSourcesColourIsKept() async throws {
        let url = try Self.colourClip()
        let asset = AVURLAsset(url: url)
        // Decoded frames carry the colour the stream states.
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: asset.tracks(withMediaType: .video)[0], outputSettings: [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
        reader.add(output)
        #expect(reader.startReading())
        let frame = try #require(output.copyNextSampleBuffer()?.imageBuffer)
        #expect(CVBufferCopyAttachment(frame, kCVImageBufferYCbCrMatrixKey, nil) as? String == kCVImageBufferYCbCrMatrix_ITU_R_601_4)
        reader.cancelReading()

        // An export through a composition that draws (half size) keeps the source's colour.
        let videoComposition = try await AVMutableVideoComposition.videoComposition(withPropertiesOf: asset)
        videoComposition.renderScale = 0.5
        let exported = try await Self.export(asset, videoComposition, to: "colour-kept.mp4")
        let source = try Self.colour(of: url)
        let result = try Self.colour(of: exported)
        // CoreVideo names BT.601's transfer curve after BT.709's (the same curve), as Apple's writer does.
        #expect(result.tags == ["smpte170m", "smpte170m", "bt709"])
        #expect(zip(result.centre, source.centre).allSatisfy { abs($0 - $1) <= 5 }, "ours \(result.centre), source \(source.centre)")
    }
}
