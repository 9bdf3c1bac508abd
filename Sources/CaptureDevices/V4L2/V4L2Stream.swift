import CV4L2
import Foundation
import HostSystem
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One capture run of a V4L2 camera: the format set on the node, the driver's memory-mapped
/// buffers, and the loop that dequeues them, converts them into pooled pixel buffers and hands
/// them out.
///
/// Set-up (`init`): `VIDIOC_S_FMT` (the driver must take the size and pixel format exactly),
/// `VIDIOC_S_PARM` with the frame interval (when the driver has `V4L2_CAP_TIMEPERFRAME`; the
/// interval it settles on becomes the samples' duration), `VIDIOC_REQBUFS` for `bufferCount`
/// mmap buffers, each queried, mapped and queued; `VIDIOC_STREAMON`.
///
/// The loop (`run`), on the camera's `DeviceThread`: `poll` in slices of
/// `DeviceThread.maximumSleepSlice` (so a stop is noticed promptly), `VIDIOC_DQBUF`, conversion
/// by the shared `PixelConverter` (compressed formats: decoding by `CameraFrameDecoder`) into a buffer of a
/// `CVPixelBufferPool` (no pixel allocation per frame), `VIDIOC_QBUF` of the driver's buffer,
/// then delivery. H.264 frames are also made into `'avc1'` samples (`H264SampleMaker`) and
/// delivered as `.compressedVideo`, decoded only while the camera is asked to decode: decoding
/// that starts (or starts again) waits for a key frame, so no picture is made from missing
/// references. Times: the driver's
/// `CLOCK_MONOTONIC` timestamp (`V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC`), which is the host time
/// clock, as microseconds; a driver with other timestamps is stamped with the host time of the
/// dequeue. Drops: the driver's sequence numbers count every frame slot, so a gap is frames the
/// driver dropped, as many as the time between the frames allows (`frameSlots`); frames marked `V4L2_BUF_FLAG_ERROR`, short or corrupt ones and those for
/// which the client holds every pool buffer are dropped here, and all are reported in the next sample's
/// `drops` (driver gaps as late, the rest as out of buffers). `ENODEV`/`EIO` from `VIDIOC_DQBUF` (an unplug) end the loop with one
/// `.disconnected` failure. At the end, always: `VIDIOC_STREAMOFF`, unmap, `VIDIOC_REQBUFS`
/// with 0 and close, so the node is free for another program as soon as `stop()` returns.
final class V4L2Stream: @unchecked Sendable {
    /// How many buffers the driver is asked for.
    static let bufferCount: UInt32 = 4

    /// One driver buffer, mapped, and a pixel buffer describing its memory in the source layout
    /// (none for the compressed formats).
    private struct MappedBuffer {
        var address: UnsafeMutableRawPointer
        var length: Int
        var image: CVPixelBuffer?
    }

    private let node: V4L2Node
    private let pixelFormat: V4L2PixelFormat
    private let width: Int
    private let height: Int
    /// The frame duration the driver settled on.
    let frameDuration: CMTime
    private var buffers: [MappedBuffer] = []
    private let pool: DeviceFramePool
    private let converter = PixelConverter()
    /// The decoder of the compressed formats (Motion-JPEG, H.264).
    private let frameDecoder: CameraFrameDecoder?
    /// The maker of samples for formats delivered compressed (H.264).
    private let sampleMaker: H264SampleMaker?
    /// Whether the decoder must see a key frame before it decodes again (H.264 only): at the
    /// start, and after a frame it did not decode (not asked to, lost by the driver, no free
    /// buffer, corrupt), whose pictures later frames refer to.
    private var decoderAwaitsKeyFrame = true

    /// What a dequeued buffer gives.
    private enum Outcome {
        /// A frame to deliver.
        case frame(CaptureSample.Payload)
        /// A frame lost: flagged bad by the driver, short, corrupt, or no free pool buffer.
        case dropped
        /// No frame at all: H.264 parameter sets sent alone.
        case noPicture
    }
    private var isStreaming = false
    private var isClosed = false

    /// Sets the node up for `format` at `frameDuration` and starts streaming; on failure
    /// everything done so far is undone.
    init(node: V4L2Node, pixelFormat: V4L2PixelFormat, format: CaptureVideoFormat,
         frameDuration: CMTime) throws(CaptureDeviceError) {
        self.node = node
        self.pixelFormat = pixelFormat
        width = format.width
        height = format.height
        var settings = v4l2_format()
        settings.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        settings.fmt.pix.width = UInt32(format.width)
        settings.fmt.pix.height = UInt32(format.height)
        settings.fmt.pix.pixelformat = pixelFormat.fourCC
        settings.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try node.perform(cv4l2_s_fmt(), &settings, "VIDIOC_S_FMT \(pixelFormat) \(format.width)x\(format.height)")
        let pix = settings.fmt.pix
        guard pix.width == UInt32(format.width), pix.height == UInt32(format.height),
              pix.pixelformat == pixelFormat.fourCC else {
            throw CaptureDeviceError(.unsupportedFormat, "\(node.path) answered VIDIOC_S_FMT \(pixelFormat) "
                + "\(format.width)x\(format.height) with \(V4L2PixelFormat.name(of: pix.pixelformat)) \(pix.width)x\(pix.height)")
        }
        if let codec = pixelFormat.compressedCodec {
            do {
                frameDecoder = try CameraFrameDecoder(codec)
            } catch {
                throw CaptureDeviceError(.failed, "cannot decode \(pixelFormat) from \(node.path): \(error)")
            }
        } else {
            frameDecoder = nil
        }
        sampleMaker = pixelFormat.codecType == nil ? nil : H264SampleMaker(width: format.width, height: format.height)
        self.frameDuration = Self.setFrameInterval(frameDuration, on: node)
        pool = try DeviceFramePool(pixelFormat: pixelFormat.deliveredPixelFormat, width: format.width, height: format.height,
                                   attachments: pixelFormat.deliversYCbCr ? [kCVImageBufferYCbCrMatrixKey: Self.matrix(of: pix)] : [:])
        do throws(CaptureDeviceError) {
            try mapBuffers(bytesPerRow: Int(pix.bytesperline))
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            try node.perform(cv4l2_streamon(), &type, "VIDIOC_STREAMON")
            isStreaming = true
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// `VIDIOC_S_PARM` with the frame interval, when the driver takes one; the interval in
    /// effect afterwards (the one asked for when the driver does not say).
    private static func setFrameInterval(_ duration: CMTime, on node: V4L2Node) -> CMTime {
        var parameters = v4l2_streamparm()
        parameters.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        parameters.parm.capture.timeperframe = v4l2_fract(numerator: UInt32(duration.value),
                                                          denominator: UInt32(duration.timescale))
        guard node.control(cv4l2_s_parm(), &parameters) == nil,
              parameters.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0,
              let settled = V4L2FormatEnumeration.duration(parameters.parm.capture.timeperframe) else {
            return duration
        }
        return settled
    }

    /// The CoreVideo Y'CbCr matrix of the driver's format (`V4L2_MAP_YCBCR_ENC_DEFAULT` when it
    /// names none).
    private static func matrix(of pix: v4l2_pix_format) -> String {
        var encoding = pix.ycbcr_enc
        if encoding == V4L2_YCBCR_ENC_DEFAULT.rawValue {
            switch pix.colorspace {
            case V4L2_COLORSPACE_REC709.rawValue, V4L2_COLORSPACE_DCI_P3.rawValue: encoding = V4L2_YCBCR_ENC_709.rawValue
            case V4L2_COLORSPACE_BT2020.rawValue: encoding = V4L2_YCBCR_ENC_BT2020.rawValue
            case V4L2_COLORSPACE_SMPTE240M.rawValue: encoding = V4L2_YCBCR_ENC_SMPTE240M.rawValue
            default: encoding = V4L2_YCBCR_ENC_601.rawValue
            }
        }
        switch encoding {
        case V4L2_YCBCR_ENC_709.rawValue, V4L2_YCBCR_ENC_XV709.rawValue: return kCVImageBufferYCbCrMatrix_ITU_R_709_2
        case V4L2_YCBCR_ENC_BT2020.rawValue, V4L2_YCBCR_ENC_BT2020_CONST_LUM.rawValue: return kCVImageBufferYCbCrMatrix_ITU_R_2020
        case V4L2_YCBCR_ENC_SMPTE240M.rawValue: return kCVImageBufferYCbCrMatrix_SMPTE_240M_1995
        default: return kCVImageBufferYCbCrMatrix_ITU_R_601_4
        }
    }

    /// `VIDIOC_REQBUFS`, then for each buffer `VIDIOC_QUERYBUF`, `mmap` and `VIDIOC_QBUF`.
    private func mapBuffers(bytesPerRow: Int) throws(CaptureDeviceError) {
        var request = v4l2_requestbuffers()
        request.count = Self.bufferCount
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try node.perform(cv4l2_reqbufs(), &request, "VIDIOC_REQBUFS")
        guard request.count >= 2 else {
            throw CaptureDeviceError(.unavailable, "\(node.path) granted \(request.count) buffer(s); 2 are needed")
        }
        for index in 0..<request.count {
            var buffer = makeBuffer(index: index)
            try node.perform(cv4l2_querybuf(), &buffer, "VIDIOC_QUERYBUF")
            let length = Int(buffer.length)
            guard let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, node.descriptor,
                                     off_t(buffer.m.offset)), address != MAP_FAILED else {
                throw CaptureDeviceError(.unavailable, "cannot map buffer \(index) of \(node.path): \(V4L2Node.describe(errno))")
            }
            buffers.append(MappedBuffer(address: address, length: length,
                                        image: sourceImage(at: address, bytesPerRow: bytesPerRow)))
            try node.perform(cv4l2_qbuf(), &buffer, "VIDIOC_QBUF")
        }
    }

    /// A `v4l2_buffer` for mmap capture buffer `index`.
    private func makeBuffer(index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        buffer.index = index
        return buffer
    }

    /// A pixel buffer over a driver buffer's memory in the source layout (planes one after the
    /// other, chroma rows half as long for the planar 4:2:0 formats), made once per buffer; nil
    /// for the compressed formats.
    private func sourceImage(at address: UnsafeMutableRawPointer, bytesPerRow: Int) -> CVPixelBuffer? {
        guard let sourcePixelFormat = pixelFormat.sourcePixelFormat else { return nil }
        let (chromaWidth, chromaHeight) = ((width + 1) / 2, (height + 1) / 2)
        let luma = CVPixelBufferPlane(baseAddress: address, width: width, height: height, bytesPerRow: bytesPerRow)
        var planes = [luma]
        switch sourcePixelFormat {
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange:
            planes.append(CVPixelBufferPlane(baseAddress: address + bytesPerRow * height, width: chromaWidth,
                                             height: chromaHeight, bytesPerRow: bytesPerRow))
        case kCVPixelFormatType_420YpCbCr8Planar:
            let chromaBytesPerRow = bytesPerRow / 2
            let cb = address + bytesPerRow * height
            planes.append(CVPixelBufferPlane(baseAddress: cb, width: chromaWidth, height: chromaHeight,
                                             bytesPerRow: chromaBytesPerRow))
            planes.append(CVPixelBufferPlane(baseAddress: cb + chromaBytesPerRow * chromaHeight, width: chromaWidth,
                                             height: chromaHeight, bytesPerRow: chromaBytesPerRow))
        default:
            break
        }
        return CVPixelBuffer(pixelFormatType: sourcePixelFormat, width: width, height: height, planes: planes,
                             release: nil)
    }

    /// The bytes a complete frame fills in the driver's buffer.
    private func frameByteCount(_ image: CVPixelBuffer) -> Int {
        image.planes.reduce(0) { $0 + $1.bytesPerRow * $1.height }
    }

    /// The capture loop: runs until `thread` is asked to stop or the device fails; then stops
    /// streaming and frees the node. Returns the failure, if there was one (the caller delivers it).
    /// `decodes` says, before each frame, whether H.264 frames are to be decoded too.
    func run(on thread: DeviceThread, decodes: () -> Bool = { true }, handler: CaptureHandler) -> CaptureDeviceError? {
        defer { close() }
        var previousSequence: UInt32?
        var previousTime: CMTime?
        var sequenceNumber: UInt64 = 0
        var drops: [CaptureDropRun] = []
        var descriptor = pollfd(fd: node.descriptor, events: Int16(POLLIN), revents: 0)
        let timeout = Int32(DeviceThread.maximumSleepSlice / 1_000_000)
        while !thread.isStopRequested {
            let ready = poll(&descriptor, 1, timeout)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            var buffer = makeBuffer(index: 0)
            if let code = node.control(cv4l2_dqbuf(), &buffer) {
                if code == EAGAIN { continue }
                return node.error(code, "VIDIOC_DQBUF")
            }
            let arrival = HostClock.now
            // Read before VIDIOC_QBUF, which rewrites the structure (clearing the timestamp).
            let time = Self.time(of: buffer, arrival: arrival)
            let hadPrevious = previousSequence != nil
            if let previous = previousSequence {
                let step = Self.frameSlots(sequenceGap: buffer.sequence &- previous, elapsed: previousTime.map { time - $0 },
                                           frameDuration: frameDuration)
                sequenceNumber += step
                drops.record(Int(step) - 1, .late)
                if step > 1 { decoderAwaitsKeyFrame = true }
            }
            previousSequence = buffer.sequence
            previousTime = time
            let outcome = Int(buffer.index) < buffers.count ? outcome(of: buffer, at: time, decoding: decodes()) : .dropped
            // Give the driver its buffer back before the client sees the frame.
            if let code = node.control(cv4l2_qbuf(), &buffer) {
                return node.error(code, "VIDIOC_QBUF")
            }
            switch outcome {
            case .frame(let frame):
                handler(.success(CaptureSample(payload: frame, presentationTime: time, duration: frameDuration,
                                               sequenceNumber: sequenceNumber, drops: drops)))
                drops = []
            case .dropped:
                drops.record(1, .outOfBuffers)
                decoderAwaitsKeyFrame = true
            case .noPicture:
                // Not a frame slot: the next frame takes this number.
                if hadPrevious { sequenceNumber -= 1 } else { previousSequence = nil }
            }
        }
        return nil
    }

    /// What a dequeued buffer gives: its frame converted (or decoded) into a pool buffer, or for
    /// H.264 made into a sample, with its picture when `decoding` (decoding starts again at a key
    /// frame, with the parameter sets before it, so that a camera sending them once still decodes).
    private func outcome(of buffer: v4l2_buffer, at time: CMTime, decoding: Bool) -> Outcome {
        let mapped = buffers[Int(buffer.index)]
        guard buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) == 0, buffer.bytesused > 0,
              Int(buffer.bytesused) >= mapped.image.map(frameByteCount) ?? 0 else {
            return .dropped
        }
        let bytes = UnsafeRawBufferPointer(start: mapped.address, count: min(Int(buffer.bytesused), mapped.length))
        guard let sampleMaker else {
            return picture(decoding: bytes, orConverting: mapped.image).map { .frame(.video($0)) } ?? .dropped
        }
        guard let sample = sampleMaker.sample(of: bytes, presentationTime: time, duration: frameDuration) else {
            return sampleMaker.heldPicture ? .dropped : .noPicture
        }
        guard decoding, !decoderAwaitsKeyFrame || sample.isSyncSample(at: 0) else {
            decoderAwaitsKeyFrame = true
            return .frame(.compressedVideo(sample, decoded: nil))
        }
        let decoded: CVPixelBuffer?
        if decoderAwaitsKeyFrame {
            frameDecoder?.reset()
            decoded = (sampleMaker.parameterSets + bytes).withUnsafeBytes { picture(decoding: $0, orConverting: nil) }
        } else {
            decoded = picture(decoding: bytes, orConverting: nil)
        }
        decoderAwaitsKeyFrame = decoded == nil
        return .frame(.compressedVideo(sample, decoded: decoded))
    }

    /// A pool buffer holding the frame: `image` converted, else `bytes` decoded; nil when the
    /// client holds every pool buffer or the frame is corrupt.
    private func picture(decoding bytes: UnsafeRawBufferPointer, orConverting image: CVPixelBuffer?) -> CVPixelBuffer? {
        guard let frame = pool.makeBuffer() else { return nil }
        do {
            if let image {
                try converter.convert(image, into: frame)
            } else if let frameDecoder {
                try frameDecoder.decode(bytes, into: frame, converter: converter)
            }
        } catch {
            return nil
        }
        return frame
    }

    /// The host time of a frame: the driver's monotonic timestamp in microseconds, else the
    /// dequeue time in nanoseconds.
    /// The frame slots from one frame to the next (1: none dropped). Sequence numbers count the
    /// driver's slots, so a gap is frames it dropped; one that does not advance (a driver
    /// repeating itself) counts as the next slot. A gap wider than the time between the two
    /// frames allows (at `frameDuration`, rounded, at least 1) is a renumbering, not drops:
    /// v4l2loopback jumps to its writer's count when a reader falls behind (seen: 1,292 after one
    /// lost frame), so only what the time allows counts.
    static func frameSlots(sequenceGap gap: UInt32, elapsed: CMTime?, frameDuration: CMTime) -> UInt64 {
        let slots = gap == 0 || gap >= 1 << 31 ? 1 : UInt64(gap)
        guard slots > 1, let elapsed, elapsed.isNumeric, frameDuration.isNumeric, frameDuration > .zero else { return slots }
        let allowed = UInt64(max(1, (elapsed.seconds / frameDuration.seconds).rounded()))
        return min(slots, allowed)
    }

    private static func time(of buffer: v4l2_buffer, arrival: UInt64) -> CMTime {
        if buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC) {
            let microseconds = Int64(buffer.timestamp.tv_sec) * 1_000_000 + Int64(buffer.timestamp.tv_usec)
            return CMTime(value: microseconds, timescale: 1_000_000)
        }
        return CMTime(value: CMTimeValue(arrival), timescale: CMTimeScale(HostClock.nanosecondsPerSecond))
    }

    /// Stops streaming, unmaps and frees the driver's buffers and closes the node; once.
    private func close() {
        guard !isClosed else { return }
        isClosed = true
        if isStreaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = node.control(cv4l2_streamoff(), &type)
        }
        for buffer in buffers { munmap(buffer.address, buffer.length) }
        buffers.removeAll()
        var release = v4l2_requestbuffers()
        release.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        release.memory = V4L2_MEMORY_MMAP.rawValue
        _ = node.control(cv4l2_reqbufs(), &release)
        node.close()
    }
}
