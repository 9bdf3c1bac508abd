import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Video compositions drawn by the built-in compositor, each frame compared with ffmpeg's
/// filter graph doing the same edit (`xfade`, `perspective`, `geq`), and their validation.
@Suite struct AVVideoCompositionTests {
    static let size = (width: 320, height: 240)

    /// A 3 s 25 fps clip of `source`, with a 4-pixel black frame around the picture (so that
    /// filters which repeat the edge pixels show black there, as the compositor does).
    static func clip(_ source: String) throws -> URL {
        try Fixtures.make("composition-\(source.prefix(8)).mp4", [
            "-f", "lavfi", "-i", "\(source)=size=312x232:rate=25", "-t", "3", "-vf", "pad=320:240:4:4:black",
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

    @Test func aCrossfadeMatchesFFmpegsXfade() throws {
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
        #expect(videoComposition.isValid(for: composition, timeRange: CMTimeRange(start: .zero, duration: composition.duration),
                                         validationDelegate: nil))

        let (times, frames) = try Self.read(composition, videoComposition)
        #expect(times == (0..<125).map { CMTime(value: $0, timescale: 25) })
        // xfade in planar RGB, after the same conversion to BGRA the reader makes (xfade takes
        // no 4:2:0, and swscale's path to planar RGB resamples the chroma otherwise).
        let reference = try Self.ffmpeg([a, b], "[0:v]format=bgra,format=gbrp[a];[1:v]format=bgra,format=gbrp[b];[a][b]xfade=transition=fade:duration=1:offset=2")
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
        let url = try Self.clip("gradients")
        // From upright to half size and turned by 30 degrees about the centre, over 2 s.
        let end = CGAffineTransform(translationX: -160, y: -120).concatenating(CGAffineTransform(scaleX: 0.5, y: 0.5))
            .concatenating(CGAffineTransform(rotationAngle: .pi / 6)).concatenating(CGAffineTransform(translationX: 160, y: 120))
        let (composition, videoComposition) = try Self.singleLayer(url) {
            $0.setTransformRamp(fromStart: .identity, toEnd: end, timeRange: CMTimeRange(start: .zero, duration: Self.seconds(2)))
        }
        let (_, frames) = try Self.read(composition, videoComposition)

        // The matrix ramps component by component, so each corner moves in a straight line:
        // ffmpeg's perspective filter sends the corners there, frame by frame (frame n, which
        // the filter counts from 1 as `in`, is at n/25 s, n/50 of the way).
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: 320, y: 0), CGPoint(x: 0, y: 240), CGPoint(x: 320, y: 240)]
        let expressions = corners.enumerated().flatMap { index, corner -> [String] in
            let moved = corner.applying(end)
            return ["x\(index)='\(corner.x)+(\(moved.x - corner.x))*min((in-1)/50\\,1)'", "y\(index)='\(corner.y)+(\(moved.y - corner.y))*min((in-1)/50\\,1)'"]
        }
        let graph = "[0:v]format=bgra,format=gbrp,perspective=" + expressions.joined(separator: ":") + ":interpolation=linear:sense=destination:eval=frame"
        let reference = try Self.ffmpeg([url], graph)
        // Smooth content, as two bilinear samplers agree only where aliasing does not decide:
        // 36 dB and more. perspective samples pixels at whole coordinates (the compositor at
        // their centres): a quarter pixel apart at half size, where the best alignment of the
        // two reaches 44 dB. A wrong matrix, a missed frame or a wrong ramp drops below 20.
        Self.expectClose(frames, reference, threshold: 35)
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
}
