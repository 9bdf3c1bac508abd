import Foundation
import MediaEngine
import OpenCoreMedia

/// The pictures of a movie or image file in presentation order, over and over: the File
/// Camera's source. Each frame's time counts from the file's first frame, and grows on across
/// loops (the second pass starts at the first pass's end, the time after its last frame). The
/// file is opened again at its end; a file of one picture (a still image) is decoded once.
/// Used by one thread at a time (the camera's).
final class FileFrames: @unchecked Sendable {
    /// A decoded picture and its time since the file's first frame, across loops.
    struct Picture {
        let frame: MediaEngine.Frame
        let time: CMTime
    }

    private let url: URL
    private var decoding: StreamDecoding
    /// The first frame's time in the file, and where the current pass starts across loops.
    private var firstTime: CMTime?
    private var passStart = CMTime.zero
    /// The end of the last frame seen in this pass, relative to the file's first frame.
    private var passEnd = CMTime.zero
    private var framesThisPass = 0
    /// The one picture of a still image, once its single pass ended.
    private var still: Picture?
    /// A frame duration for frames that state none (the stream's).
    private let frameDuration: CMTime

    /// The size of the pictures, and the stream's frame duration (invalid when it states none).
    let width: Int, height: Int
    let streamFrameDuration: CMTime

    /// Opens `url`'s first video stream; throws when it has none or it cannot be decoded.
    init(url: URL) throws(CaptureDeviceError) {
        self.url = url
        decoding = try Self.open(url)
        let description = decoding.demuxer.streams[decoding.stream]
        width = Int(description.width)
        height = Int(description.height)
        streamFrameDuration = description.minFrameDuration
        frameDuration = description.minFrameDuration.isNumeric && description.minFrameDuration > .zero
            ? description.minFrameDuration : CMTime(value: 1, timescale: 30)
    }

    private static func open(_ url: URL) throws(CaptureDeviceError) -> StreamDecoding {
        let decoding: StreamDecoding?
        do throws(EngineError) {
            decoding = try StreamDecoding(url: url, kind: .video)
        } catch {
            throw CaptureDeviceError(.unavailable, "\(url.lastPathComponent) cannot be played: \(error)")
        }
        guard let decoding else {
            throw CaptureDeviceError(.unavailable, "\(url.lastPathComponent) has no video this machine decodes")
        }
        return decoding
    }

    /// Whether the file is a single picture (known once its first pass ended).
    var isStill: Bool { still != nil }

    /// The next picture; loops at the end. Throws when the file cannot be read or decoded (it
    /// went away, or is damaged past the first picture).
    func next() throws(CaptureDeviceError) -> Picture {
        while true {
            if let still { return still }
            if let picture = try decodeMore() { return picture }
            try endPass()
        }
    }

    /// The next picture of this pass, or nil at its end.
    private func decodeMore() throws(CaptureDeviceError) -> Picture? {
        let decoded: MediaEngine.Frame?
        do throws(EngineError) {
            decoded = try decoding.nextFrame()
        } catch {
            throw CaptureDeviceError(.failed, "\(url.lastPathComponent) cannot be played on: \(error)")
        }
        guard let frame = decoded else { return nil }
        let time = frame.presentationTime.isNumeric ? frame.presentationTime : passEnd + (firstTime ?? .zero)
        if firstTime == nil { firstTime = time }
        let relative = time - (firstTime ?? .zero)
        let duration = frame.duration.isNumeric && frame.duration > .zero ? frame.duration : frameDuration
        passEnd = max(passEnd, relative + duration)
        framesThisPass += 1
        let picture = Picture(frame: frame, time: passStart + relative)
        lastPicture = picture
        return picture
    }

    /// The last picture given out.
    private var lastPicture: Picture?

    /// The file's end: a still image (one picture in the first pass) keeps its picture; a movie
    /// opens again, its next pass starting where this one ended.
    private func endPass() throws(CaptureDeviceError) {
        guard framesThisPass > 0, let lastPicture else {
            throw CaptureDeviceError(.failed, "\(url.lastPathComponent) has no picture to play")
        }
        if passStart == .zero, framesThisPass == 1 {
            still = lastPicture
            return
        }
        decoding = try Self.open(url)
        passStart = passStart + passEnd
        passEnd = .zero
        framesThisPass = 0
    }
}
