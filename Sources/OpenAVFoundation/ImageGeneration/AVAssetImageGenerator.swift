import Dispatch
import Foundation
import HostSystem
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// The handler `generateCGImagesAsynchronously(forTimes:completionHandler:)` calls once per
/// requested time: the requested time, the image, the time it was actually taken at, the
/// result and, on failure, the error.
public typealias AVAssetImageGeneratorCompletionHandler =
    @Sendable (CMTime, CGImage?, CMTime, AVAssetImageGenerator.Result, Error?) -> Void

/// Makes still images of an asset's video at given times, such as thumbnails.
///
/// Reads through `AVAssetReader`: each image seeks to the key frame before the time and
/// decodes only as far as the tolerances require.
open class AVAssetImageGenerator: NSObject, @unchecked Sendable {
    /// How an image request ended.
    public enum Result: Int, Sendable {
        /// The image was made.
        case succeeded = 0
        /// The image could not be made; the error says why.
        case failed = 1
        /// `cancelAllCGImageGeneration()` cancelled the request.
        case cancelled = 2
    }

    /// Which part of the picture an image shows, and at which aspect ratio.
    public struct ApertureMode: RawRepresentable, Hashable, Sendable {
        /// The mode's name.
        public let rawValue: String
        /// Creates a mode from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The clean aperture at the pixel aspect ratio (the default).
        public static let cleanAperture = ApertureMode(rawValue: "CleanAperture")
        /// The whole picture at the pixel aspect ratio.
        public static let productionAperture = ApertureMode(rawValue: "ProductionAperture")
        /// The encoded pixels as they are.
        public static let encodedPixels = ApertureMode(rawValue: "EncodedPixels")
    }

    /// Counts cancellations, so that requests made before one are not started.
    @Locked private var generation = 0
    private let queue = DispatchQueue(label: "OpenAVFoundation.AVAssetImageGenerator")

    /// The asset images are made of.
    public let asset: AVAsset

    /// Whether images are turned upright by the track's preferred transform (default false).
    open var appliesPreferredTrackTransform = false
    /// The largest size an image may have, aspect kept and never enlarged; `.zero` (the
    /// default) for the video's own size. A zero width or height leaves that side free.
    open var maximumSize: CGSize = .zero
    /// Which part of the picture images show (default `.cleanAperture`; nil reads as
    /// `.cleanAperture`).
    open var apertureMode: ApertureMode? = .cleanAperture
    /// How much earlier than asked an image may be taken (default: any, for speed: the key frame
    /// before the time). `.zero` asks for the exact frame.
    open var requestedTimeToleranceBefore: CMTime = .positiveInfinity
    /// How much later than asked an image may be taken (default: any).
    open var requestedTimeToleranceAfter: CMTime = .positiveInfinity
    /// How the asset's video tracks are composed into the image; nil shows the first video
    /// track. A composed image is upright at the composition's render size (fitted into
    /// `maximumSize`); `appliesPreferredTrackTransform` does not apply. A copy is kept, so later
    /// changes to a mutable composition do not reach the generator.
    open var videoComposition: AVVideoComposition? {
        get { composing.composition }
        set {
            let (copy, made) = AVVideoComposition.copyWithCompositor(newValue)
            composing.withLock { composing in
                composing.composition = copy
                composing.compositor = made
            }
        }
    }

    /// The custom compositor made from the video composition's `customVideoCompositorClass`,
    /// which draws every composed image; nil without one.
    open var customVideoCompositor: (any AVVideoCompositing)? { composing.compositor }

    /// The copy of the video composition and the compositor made from it, set together.
    private struct Composing {
        var composition: AVVideoComposition?
        var compositor: (any AVVideoCompositing)?
    }

    private let composing = Locked(Composing())

    /// Creates a generator for `asset`.
    public init(asset: AVAsset) {
        self.asset = asset
        super.init()
    }

    /// Makes the image at `requestedTime`, blocking; the time it was taken at goes to `actualTime`.
    open func copyCGImage(at requestedTime: CMTime, actualTime: UnsafeMutablePointer<CMTime>?) throws -> CGImage {
        let (image, time) = try makeImage(at: requestedTime)
        actualTime?.pointee = time
        return image
    }

    /// Makes the image at `time` without blocking.
    open func image(at time: CMTime) async throws -> (image: CGImage, actualTime: CMTime) {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do {
                    let (image, actual) = try self.makeImage(at: time)
                    continuation.resume(returning: (image, actual))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Makes the image at `requestedTime` on a queue of the generator's, then calls `handler`
    /// with it and the time it was taken at, or with nil and the error.
    open func generateCGImageAsynchronously(for requestedTime: CMTime,
                                           completionHandler handler: @escaping @Sendable (CGImage?, CMTime, (any Error)?) -> Void) {
        queue.async {
            do {
                let (image, actual) = try self.makeImage(at: requestedTime)
                handler(image, actual, nil)
            } catch {
                handler(nil, .invalid, error)
            }
        }
    }

    /// Makes an image at each time, in order, on a queue of the generator's, calling
    /// `handler` once per time.
    open func generateCGImagesAsynchronously(forTimes requestedTimes: [NSValue],
                                            completionHandler handler: @escaping AVAssetImageGeneratorCompletionHandler) {
        let generation = self.generation
        let times = requestedTimes.map(\.timeValue)
        queue.async {
            for time in times {
                guard self.generation == generation else {
                    handler(time, nil, .invalid, .cancelled, nil)
                    continue
                }
                do {
                    let (image, actual) = try self.makeImage(at: time)
                    handler(time, image, actual, .succeeded, nil)
                } catch {
                    handler(time, nil, .invalid, .failed, error)
                }
            }
        }
    }

    /// Cancels the requests not yet started; their handlers are called with `.cancelled`.
    open func cancelAllCGImageGeneration() {
        $generation.withLock { $0 += 1 }
    }

    /// The image nearest `time` within the tolerances, and its time.
    func makeImage(at time: CMTime) throws -> (CGImage, CMTime) {
        guard time.isNumeric else { throw AVError(.noImageAtTime, reason: "the requested time is not a number") }
        guard let track = asset.preferredTrack(withMediaType: .video) else {
            if case .failure(let error) = asset.loader.contentsBlocking() { throw error }
            throw AVError(.noSourceTrack, reason: "the asset has no video track")
        }
        let (composition, compositor) = composing.withLock { ($0.composition, $0.compositor) }
        let transform = appliesPreferredTrackTransform && composition == nil ? track.preferredTransform : .identity
        let turns = Self.quarterTurn(transform)
        let reader = try AVAssetReader(asset: asset)
        reader.timeRange = CMTimeRange(start: time, duration: .positiveInfinity)
        let output: AVAssetReaderOutput
        if let composition {
            let scale = Double(composition.renderScale)
            let (width, height) = fitted(CGSize(width: composition.renderSize.width * scale, height: composition.renderSize.height * scale))
            let composed = AVAssetReaderVideoCompositionOutput(videoTracks: asset.tracks(withMediaType: .video), videoSettings: [
                kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey: width, kCVPixelBufferHeightKey: height,
            ])
            composed.setVideoComposition(composition, compositor: compositor)
            output = composed
        } else {
            let (width, height) = outputSize(of: track, quarterTurns: turns)
            let trackOutput = AVAssetReaderTrackOutput(track: track, outputSettings: [
                kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA,
                kCVPixelBufferWidthKey: turns.swapsSides ? height : width,
                kCVPixelBufferHeightKey: turns.swapsSides ? width : height,
            ])
            trackOutput.deliversFromSyncSample = true
            trackOutput.deliversOnlySyncSample = requestedTimeToleranceBefore.isPositiveInfinity
            output = trackOutput
        }
        output.alwaysCopiesSampleData = false
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? AVError(.noImageAtTime, reason: "reading failed") }
        defer { reader.cancelReading() }
        var chosen: CMSampleBuffer?
        while let sample = output.copyNextSampleBuffer() {
            chosen = sample
            if accepts(sample, for: time) { break }
        }
        guard let sample = chosen, let pixels = sample.imageBuffer else {
            throw reader.error ?? AVError(.noImageAtTime, reason: "no frame at \(time.seconds) s")
        }
        guard accepts(sample, for: time) || sample.presentationTimeStamp <= time else {
            throw AVError(.noImageAtTime, reason: "no frame within the tolerances of \(time.seconds) s")
        }
        let upright = try turned(pixels, turns)
        guard let image = Self.opaqueImage(upright) else {
            throw AVError(.noImageAtTime, reason: "cannot make an image of the frame")
        }
        return (image, sample.presentationTimeStamp)
    }

    /// An sRGB image of a BGRA video frame, described as opaque (the alpha byte is skipped, as
    /// in the images Apple's generator makes), holding a copy of the pixels.
    private static func opaqueImage(_ pixels: CVPixelBuffer) -> CGImage? {
        let plane = pixels.planes[0]
        let rowBytes = pixels.width * 4
        let bytes = NSData(bytes: plane.baseAddress, length: plane.bytesPerRow * (pixels.height - 1) + rowBytes)
        guard let provider = CGDataProvider(data: bytes), let space = CGColorSpace(name: CGColorSpace.sRGB) else { return nil }
        let info: CGBitmapInfo = [CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipFirst.rawValue), .byteOrder32Little]
        return CGImage(width: pixels.width, height: pixels.height, bitsPerComponent: 8, bitsPerPixel: 32,
                       bytesPerRow: plane.bytesPerRow, space: space, bitmapInfo: info, provider: provider, decode: nil,
                       shouldInterpolate: true, intent: .defaultIntent)
    }

    /// Whether a frame may stand for `time`: it is shown at `time`, or it starts within the
    /// tolerances around it.
    private func accepts(_ sample: CMSampleBuffer, for time: CMTime) -> Bool {
        let start = sample.presentationTimeStamp
        let end = sample.duration.isNumeric ? start + sample.duration : start
        if start <= time && time < end { return true }
        let earliest = requestedTimeToleranceBefore.isPositiveInfinity ? CMTime.negativeInfinity : time - requestedTimeToleranceBefore
        let latest = requestedTimeToleranceAfter.isPositiveInfinity ? CMTime.positiveInfinity : time + requestedTimeToleranceAfter
        return earliest <= start && start <= latest
    }

    /// The size of the image after turning: the track's display size, fitted into
    /// `maximumSize` with its aspect kept, never enlarged, rounded to whole pixels.
    private func outputSize(of track: AVAssetTrack, quarterTurns turns: QuarterTurn) -> (Int, Int) {
        let natural = apertureMode == .encodedPixels
            ? CGSize(width: Double(track.contents.codedWidth), height: Double(track.contents.codedHeight))
            : track.naturalSize
        return fitted(turns.swapsSides ? CGSize(width: natural.height, height: natural.width) : natural)
    }

    /// A size fitted into `maximumSize` with its aspect kept, never enlarged, rounded to whole
    /// pixels.
    private func fitted(_ natural: CGSize) -> (Int, Int) {
        var size = natural
        var scale = 1.0
        if maximumSize.width > 0 { scale = min(scale, maximumSize.width / size.width) }
        if maximumSize.height > 0 { scale = min(scale, maximumSize.height / size.height) }
        size = CGSize(width: size.width * scale, height: size.height * scale)
        return (max(1, Int(size.width.rounded())), max(1, Int(size.height.rounded())))
    }

    /// A transform's quarter turn, or none when it is something else.
    private static func quarterTurn(_ transform: CGAffineTransform) -> QuarterTurn {
        QuarterTurn(a: transform.a, b: transform.b, c: transform.c, d: transform.d) ?? .identity
    }

    /// The frame turned upright, or the frame itself when no turn is needed.
    private func turned(_ pixels: CVPixelBuffer, _ turns: QuarterTurn) throws -> CVPixelBuffer {
        guard !turns.isIdentity else { return pixels }
        let width = turns.swapsSides ? pixels.height : pixels.width
        let height = turns.swapsSides ? pixels.width : pixels.height
        var upright: CVPixelBuffer?
        CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &upright)
        guard let upright else { throw AVError(.outOfMemory, reason: "cannot allocate a \(width)x\(height) image") }
        do throws(EngineError) {
            try PixelConverter().transform(pixels, into: upright, turns)
        } catch {
            throw AVError(error, fallback: .noImageAtTime)
        }
        return upright
    }
}
