import Foundation
import HostSystem
import Logging
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// A virtual camera that plays a movie or a still image file (a Linux addition, as browsers'
/// fake capture devices play a file): what apps that scan codes or detect faces are tested with
/// on machines without a camera, and a way to feed a recorded scene into a capture pipeline.
///
/// Formats: the file's picture size in `'420v'`, `'420f'` and `'BGRA'`, from 1 frame a second
/// to the file's frame rate (a still image: to 60). Timing is the Test Pattern Camera's: frames
/// lie on a grid of the host clock and each is stamped with its grid time. The picture of each
/// frame is the file's frame whose time (from the file's first frame) the camera has reached
/// since it started, so at the file's own rate every frame of the file is delivered once, in
/// order; slower, frames are skipped; the movie loops at its end. Pictures are converted by the
/// shared `PixelConverter` into the camera's pooled buffers (4:2:0 files into 4:2:0 buffers
/// are copied). A file that cannot be read fails when the camera is made; one that fails
/// later (removed, damaged) ends the capture with `.failed`.
package final class FileCamera: FileDevice, @unchecked Sendable {
    package let uniqueID: String
    package let modelID = "OpenAV File Camera"
    package let localizedName: String
    package let mediaKind = CaptureMediaKind.video
    package var isConnected: Bool { runner.isConnected }
    package var isRunning: Bool { runner.isRunning }
    package let formats: [CaptureFormat]

    /// The file played.
    package let url: URL

    private static let logger = Logger(label: "OpenAVFoundation.CaptureDevices.FileCamera")
    private let runner = DeviceRunner(logger: FileCamera.logger)

    package static let uniqueIDPrefix = "openav-file-camera:"
    package static let environmentVariable = "OPENAV_FILE_CAMERA"

    /// A camera playing `url`; throws when the file has no picture this machine decodes.
    package init(url: URL) throws(CaptureDeviceError) {
        self.url = url
        uniqueID = Self.uniqueID(of: url)
        localizedName = "File Camera (\(url.lastPathComponent))"
        let frames = try FileFrames(url: url)
        _ = try frames.next()
        // A movie plays at most at its own rate; a still image (which the second picture
        // tells) at any rate to 60 a second.
        let still = (try? frames.next()) == nil || frames.isStill
        let own = frames.streamFrameDuration
        let fastest = still ? CMTime(value: 1, timescale: 60) : own.isNumeric && own > .zero ? own : CMTime(value: 1, timescale: 30)
        let range = CaptureFrameRateRange(minFrameDuration: fastest, maxFrameDuration: CMTime(value: 1, timescale: 1))
        formats = TestPatternCamera.pixelFormats.map { pixelFormat in
            .video(CaptureVideoFormat(pixelFormat: pixelFormat, width: frames.width, height: frames.height, frameRateRanges: [range],
                                      exposureDurations: nil, isos: nil, maxZoomFactor: 1, fieldOfView: 70))
        }
    }

    package func start(format: CaptureFormat, frameDuration: CMTime?,
                       handler: @escaping CaptureHandler) throws(CaptureDeviceError) {
        guard case .video(let video) = format, let offered = videoFormats.first(where: { $0.pixelFormat == video.pixelFormat }) else {
            throw CaptureDeviceError(.unsupportedFormat, "\(localizedName) has no format \(format)")
        }
        let duration = frameDuration ?? offered.defaultFrameDuration
        guard offered.supports(frameDuration: duration), let grid = HostTimeGrid(step: duration) else {
            throw CaptureDeviceError(.unsupportedFrameDuration, "\(localizedName) \(offered) cannot deliver frames every \(duration.seconds) s")
        }
        let url = url
        try runner.start(self, handler: handler) { () throws(CaptureDeviceError) in
            let frames = try FileFrames(url: url)
            let pool = try DeviceFramePool(pixelFormat: offered.pixelFormat, width: offered.width, height: offered.height)
            Self.logger.debug("playing \(url.path) as \(offered) every \(duration.value)/\(duration.timescale) s")
            return { deviceThread, handler in
                Self.run(frames: frames, pool: pool, grid: grid, on: deviceThread, handler: handler)
            }
        }
    }

    package func stop() {
        runner.stop()
    }

    /// The production loop: at each tick, the file's picture of the time since the start,
    /// converted into a pooled buffer (again only when the picture changed), delivered at the
    /// tick's deadline.
    private static func run(frames: FileFrames, pool: DeviceFramePool, grid: HostTimeGrid,
                            on thread: DeviceThread, handler: CaptureHandler) -> CaptureDeviceError? {
        let converter = PixelConverter()
        var shown: FileFrames.Picture?
        var upcoming: FileFrames.Picture?
        var delivered: CVPixelBuffer?
        var failure: CaptureDeviceError?
        thread.runFrames(on: grid, prepare: { _, _ in () }) { _, tick, sequence, drops in
            // The file's time this tick shows (a little ahead: a frame at the tick is due).
            let position = CMTimeMultiply(grid.step, multiplier: Int32(clamping: sequence)) + CMTime(value: 1, timescale: 1000)
            do throws(CaptureDeviceError) {
                if shown == nil { shown = try frames.next() }
                while !frames.isStill {
                    let candidate: FileFrames.Picture
                    if let upcoming { candidate = upcoming } else { candidate = try frames.next() }
                    guard !frames.isStill, candidate.time <= position else {
                        upcoming = frames.isStill ? nil : candidate
                        break
                    }
                    shown = candidate
                    upcoming = nil
                    delivered = nil
                }
            } catch {
                failure = error
                return false
            }
            if delivered == nil, let picture = shown?.frame, let buffer = pool.makeBuffer() {
                do throws(EngineError) {
                    try converter.convert(picture, into: buffer)
                    delivered = buffer
                } catch {
                    failure = CaptureDeviceError(.failed, "a picture of the file cannot be converted: \(error)")
                    return false
                }
            }
            guard let delivered else {
                drops.record(1, .outOfBuffers)
                return true
            }
            handler(.success(CaptureSample(payload: .video(delivered), presentationTime: grid.time(ofTick: tick),
                                           duration: grid.step, sequenceNumber: sequence, drops: drops)))
            drops.removeAll()
            return true
        }
        return failure
    }
}
