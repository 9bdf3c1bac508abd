import CFFmpeg
import Foundation
import Testing
import TestSupport
import OpenCoreMedia
import OpenCoreVideo
@testable import MediaEngine

/// Frames and samples encoded by the engine and written by its muxer, checked with ffprobe
/// (structure, exact timestamps) and ffmpeg decodes (pixels, tone).
@Suite(.timeLimit(.minutes(10))) struct EncoderTests {
    // MARK: Helpers shared with MuxerTests

    /// A fresh path in the fixture folder that does not exist yet.
    static func outputURL(_ name: String) -> URL {
        Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-\(name)")
    }

    /// A 32BGRA picture of frame `index`: smooth gradients that move, and a moving square.
    static func bgraFrame(_ index: Int, width: Int = 320, height: Int = 240) throws -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        try #require(CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &buffer) == kCVReturnSuccess)
        let pixels = try #require(buffer)
        CVPixelBufferLockBaseAddress(pixels, [])
        defer { CVPixelBufferUnlockBaseAddress(pixels, []) }
        let base = CVPixelBufferGetBaseAddress(pixels)!.assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(pixels)
        let (squareX, squareY) = (20 + 3 * index, 40 + index)
        // Triangle waves: smooth ramps without the hard edges of wrapping around.
        func ramp(_ value: Int) -> UInt8 { UInt8(value % 512 < 256 ? value % 256 : 255 - value % 256) }
        for y in 0..<height {
            let row = base + y * stride
            for x in 0..<width {
                let inSquare = x >= squareX && x < squareX + 48 && y >= squareY && y < squareY + 48
                row[4 * x] = inSquare ? 40 : ramp(x + 2 * index)                   // blue
                row[4 * x + 1] = inSquare ? 200 : ramp(y * 255 / height + index)   // green
                row[4 * x + 2] = inSquare ? 230 : ramp((x + y) / 3)                // red
                row[4 * x + 3] = 255
            }
        }
        return pixels
    }

    /// Encodes the pictures at the given times into a new file and returns it.
    static func writeVideo(_ settings: EncoderSettings.Video, fileType: String, name: String,
                           frames: [(CVPixelBuffer, CMTime)], options: Muxer.Options = Muxer.Options(),
                           trackOptions: MuxerTrackOptions = MuxerTrackOptions()) throws -> URL {
        let url = outputURL(name)
        let muxer = try Muxer(url: url, fileType: fileType, options: options)
        let encoder = try Encoder(settings: .video(settings), globalHeader: Muxer.needsGlobalHeader(fileType: fileType))
        let track = try muxer.addTrack(from: encoder, options: trackOptions)
        for (pixels, time) in frames {
            try encoder.encode(pixels, presentationTime: time)
            for packet in encoder.receivePackets() { try muxer.write(packet, track: track) }
        }
        try encoder.finish()
        for packet in encoder.receivePackets() { try muxer.write(packet, track: track) }
        try muxer.finish()
        return url
    }

    /// One packet as ffprobe lists it, times as exact fractions of a second (value, time base).
    struct ProbedPacket {
        let pts: Int64
        let dts: Int64
        let size: Int
        let isKey: Bool
    }

    /// The packets of stream `index` as ffprobe lists them (in file order) and the stream's time base.
    static func probePackets(_ url: URL, stream index: Int = 0) throws -> (packets: [ProbedPacket], timeBase: (Int64, Int64)) {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "\(index)", "-show_entries",
                                                "packet=pts,dts,size,flags:stream=time_base", "-of", "json", url.path])
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let streams = try #require(json["streams"] as? [[String: Any]])
        let base = try #require(streams.first?["time_base"] as? String).split(separator: "/").compactMap { Int64($0) }
        try #require(base.count == 2)
        let packets = try #require(json["packets"] as? [[String: Any]]).map { p in
            ProbedPacket(pts: (p["pts"] as? NSNumber)?.int64Value ?? .min, dts: (p["dts"] as? NSNumber)?.int64Value ?? .min,
                         size: Int(p["size"] as? String ?? "") ?? -1, isKey: (p["flags"] as? String ?? "").hasPrefix("K"))
        }
        return (packets, (base[0], base[1]))
    }

    /// The first stream of ffprobe's `-show_streams`.
    static func firstStream(_ url: URL, type: String) throws -> [String: Any] {
        let probe = try Fixtures.probe(url)
        let streams = try #require(probe["streams"] as? [[String: Any]])
        return try #require(streams.first { $0["codec_type"] as? String == type })
    }

    /// Checks a written video: codec, size, frame count, every presentation time exactly,
    /// increasing decode times, and the pixels against the input.
    static func checkVideo(_ url: URL, codec: String, tag: String? = nil, times: [CMTime],
                           frames: [CVPixelBuffer], minimumPSNR: Double) throws {
        let stream = try firstStream(url, type: "video")
        #expect(stream["codec_name"] as? String == codec)
        if let tag { #expect(stream["codec_tag_string"] as? String == tag) }
        #expect(stream["width"] as? Int == 320 && stream["height"] as? Int == 240)

        let (packets, timeBase) = try probePackets(url)
        #expect(packets.count == times.count)
        // Presentation times, sorted, equal the ones given: pts × num / den == value / timescale.
        let presented = packets.map(\.pts).sorted()
        for (pts, time) in zip(presented, times) {
            #expect(Int64(pts) * timeBase.0 * Int64(time.timescale) == time.value * timeBase.1,
                    "pts \(pts) × \(timeBase.0)/\(timeBase.1) is not \(time.value)/\(time.timescale)")
        }
        // Decode times strictly increase in file order and never follow their presentation.
        for (previous, next) in zip(packets, packets.dropFirst()) { #expect(previous.dts < next.dts) }
        for packet in packets { #expect(packet.dts <= packet.pts) }
        #expect(packets.first?.isKey == true)

        let decoded = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-fps_mode", "passthrough",
                                                          "-f", "rawvideo", "-pix_fmt", "bgra", "-"]))
        let input = frames.flatMap { PixelComparison.packed($0, bytesPerPixel: 4) }
        try #require(decoded.count == input.count, "decoded \(decoded.count) bytes, expected \(input.count)")
        let quality = PixelComparison.psnr(decoded, input)
        #expect(quality >= minimumPSNR, "PSNR \(quality) dB")
    }

    // MARK: Video

    /// Codecs with the container they go in, ffprobe's names and the PSNR they must reach.
    static let videoCases: [(EncoderSettings.VideoCodec, String, String, String?, Double)] = [
        (.h264, "mp4", "h264", "avc1", 35),
        (.hevc, "mp4", "hevc", "hvc1", 35),
        (.proRes422, "mov", "prores", "apcn", 40),
        (.proRes4444, "mov", "prores", "ap4h", 40),
        (.jpeg, "mov", "mjpeg", "jpeg", 33),
    ]

    @Test(arguments: 0..<videoCases.count)
    func sixtyFramesAtThirtyFPSKeepTheirTimesAndPixels(_ index: Int) throws {
        let (codec, fileType, name, tag, minimumPSNR) = Self.videoCases[index]
        let frames = try (0..<60).map { try Self.bgraFrame($0) }
        let times = (0..<60).map { CMTime(value: Int64($0), timescale: 30) }
        let settings = EncoderSettings.Video(codec: codec, width: 320, height: 240, expectedFrameRate: 30)
        let url = try Self.writeVideo(settings, fileType: fileType, name: "\(codec).\(fileType)",
                                      frames: Array(zip(frames, times)))
        try Self.checkVideo(url, codec: name, tag: tag, times: times, frames: frames, minimumPSNR: minimumPSNR)
        // The last frame lasts as long as the others: the track is exactly 2 s.
        let duration = try #require(Double(try Self.firstStream(url, type: "video")["duration"] as? String ?? ""))
        #expect(abs(duration - 2) < 0.001, "duration \(duration)")
    }

    @Test func h264UsesBFramesAndKeepsVariableFrameTimesExactly() throws {
        // Irregular intervals in a 90 kHz timescale: 1/30 s, 1/60 s, 1/20 s, …
        var times: [CMTime] = []
        var value: Int64 = 0
        for k in 0..<60 {
            times.append(CMTime(value: value, timescale: 90000))
            value += [3000, 1500, 4500, 3003][k % 4]
        }
        let frames = try (0..<60).map { try Self.bgraFrame($0) }
        let settings = EncoderSettings.Video(codec: .h264, width: 320, height: 240, allowFrameReordering: true,
                                             expectedFrameRate: 30)
        let url = try Self.writeVideo(settings, fileType: "mp4", name: "vfr.mp4", frames: Array(zip(frames, times)))
        try Self.checkVideo(url, codec: "h264", times: times, frames: frames, minimumPSNR: 35)
        // B-frames: some packets are stored before pictures shown earlier than them.
        let (packets, _) = try Self.probePackets(url)
        #expect(zip(packets, packets.dropFirst()).contains { $0.pts > $1.pts })
    }

    @Test func withoutFrameReorderingPacketsAreInPresentationOrder() throws {
        let frames = try (0..<30).map { try Self.bgraFrame($0) }
        let times = (0..<30).map { CMTime(value: Int64($0), timescale: 30) }
        let settings = EncoderSettings.Video(codec: .h264, width: 320, height: 240, maxKeyFrameInterval: 10,
                                             allowFrameReordering: false, profile: .h264Main(level: "3.0"),
                                             expectedFrameRate: 30)
        let url = try Self.writeVideo(settings, fileType: "mp4", name: "noreorder.mp4", frames: Array(zip(frames, times)))
        let (packets, _) = try Self.probePackets(url)
        #expect(packets.map(\.pts) == packets.map(\.pts).sorted())
        // At most 10 frames from one key frame to the next (x264 may add more at scene cuts).
        let keys = packets.indices.filter { packets[$0].isKey } + [packets.count]
        #expect(keys.first == 0 && zip(keys, keys.dropFirst()).allSatisfy { $1 - $0 <= 10 })
        let stream = try Self.firstStream(url, type: "video")
        #expect(stream["profile"] as? String == "Main")
        #expect(stream["level"] as? Int == 30)
    }

    @Test func pixelBuffersInTheEncodersLayoutAreUsedWithoutCopyAndReleased() throws {
        // 4:2:0 planar buffers go to x264 as they are; the encoder keeps each alive only while
        // FFmpeg holds it.
        let converter = PixelConverter()
        var frames: [CVPixelBuffer] = []
        var yuv: [CVPixelBuffer] = []
        for k in 0..<20 {
            let bgra = try Self.bgraFrame(k)
            var buffer: CVPixelBuffer?
            try #require(CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_420YpCbCr8Planar, nil, &buffer) == kCVReturnSuccess)
            try converter.convert(bgra, into: try #require(buffer))
            yuv.append(buffer!)
            // The reference is the 4:2:0 picture itself, back in BGRA.
            var back: CVPixelBuffer?
            _ = CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &back)
            try converter.convert(buffer!, into: back!)
            frames.append(back!)
        }
        weak var firstInput: CVBuffer?
        let url = Self.outputURL("zerocopy.mp4")
        do {
            let muxer = try Muxer(url: url, fileType: "mp4")
            let encoder = try Encoder(settings: .video(.init(codec: .h264, width: 320, height: 240,
                                                             pixelFormat: Encoder.preferredPixelFormat(
                                                                 for: .h264, source: kCVPixelFormatType_420YpCbCr8Planar))),
                                      globalHeader: true)
            let track = try muxer.addTrack(from: encoder)
            for (k, buffer) in yuv.enumerated() {
                try encoder.encode(buffer, presentationTime: CMTime(value: Int64(k), timescale: 25))
                for packet in encoder.receivePackets() { try muxer.write(packet, track: track) }
            }
            firstInput = yuv[0]
            yuv.removeAll()
            try encoder.finish()
            for packet in encoder.receivePackets() { try muxer.write(packet, track: track) }
            try muxer.finish()
        }
        #expect(firstInput == nil, "the encoder still holds the first pixel buffer")
        let decoded = [UInt8](try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "rawvideo",
                                                          "-pix_fmt", "bgra", "-"]))
        #expect(PixelComparison.psnr(decoded, frames.flatMap { PixelComparison.packed($0, bytesPerPixel: 4) }) >= 35)
    }

    @Test func decreasingTimesAndWrongMediaAreErrorsNotCrashes() throws {
        let encoder = try Encoder(settings: .video(.init(codec: .h264, width: 320, height: 240)), globalHeader: true)
        let frame = try Self.bgraFrame(0)
        try encoder.encode(frame, presentationTime: CMTime(value: 1, timescale: 30))
        #expect(throws: EngineError.self) { try encoder.encode(frame, presentationTime: CMTime(value: 1, timescale: 30)) }
        #expect(throws: EngineError.self) { try encoder.encode(frame, presentationTime: .invalid) }
        #expect(throws: EngineError.self) {
            try encoder.encode(pcm: try Self.sineBuffers(rate: 48000, channels: 1, seconds: 0.1)[0])
        }
    }

    @Test func settingsThatCannotWorkAreRefused() throws {
        // Odd size for 4:2:0, an HEVC profile for H.264, a rate Opus refuses, ALAC at 20 bits.
        #expect(throws: EngineError.self) { try Encoder(settings: .video(.init(codec: .h264, width: 321, height: 240)), globalHeader: true) }
        #expect(throws: EngineError.self) {
            try Encoder(settings: .video(.init(codec: .h264, width: 320, height: 240, profile: .hevcMain)), globalHeader: true)
        }
        #expect(throws: EngineError.self) {
            try Encoder(settings: .audio(.init(codec: .opus, sampleRate: 44100, channelCount: 2)), globalHeader: true)
        }
        #expect(throws: EngineError.self) {
            try Encoder(settings: .audio(.init(codec: .appleLossless(bitDepth: 20), sampleRate: 44100, channelCount: 2)),
                        globalHeader: true)
        }
    }

    @Test func theFormatDescriptionCarriesTheConfigurationRecord() throws {
        let encoder = try Encoder(settings: .video(.init(codec: .hevc, width: 320, height: 240)), globalHeader: true)
        let description = try #require(encoder.formatDescription)
        #expect(CMFormatDescriptionGetMediaSubType(description) == FourCharCode(fourCC: "hvc1"))
        #expect(CMVideoFormatDescriptionGetDimensions(description).width == 320)
        // libx265's global header is the Annex-B VPS, SPS and PPS (the muxer builds hvcC from it).
        let parameters = encoder.codecParameters.pointee
        try #require(parameters.extradata_size > 4)
        #expect(Array(UnsafeBufferPointer(start: parameters.extradata, count: 4)) == [0, 0, 0, 1])
        let aac = try Encoder(settings: .audio(.init(codec: .aac, sampleRate: 44100, channelCount: 2)), globalHeader: true)
        #expect(aac.frameSize == 1024)
        #expect(aac.formatDescription?.audioStreamBasicDescription?.mSampleRate == 44100)
        #expect((aac.formatDescription?.codecPrivateData?.count ?? 0) >= 2) // AudioSpecificConfig
    }

    // MARK: Audio

    /// A 440 Hz sine as interleaved signed 16-bit sample buffers of 1000 frames each.
    static func sineBuffers(rate: Int, channels: Int, seconds: Double, frequency: Double = 440) throws -> [CMSampleBuffer] {
        let format = PCMFormat(sampleRate: Double(rate), channelCount: channels)
        let description = CMFormatDescription(mediaType: kCMMediaType_Audio, mediaSubType: kAudioFormatLinearPCM,
                                              audioStreamBasicDescription: format.audioStreamBasicDescription,
                                              channelLayoutTag: format.channelLayoutTag)
        let total = Int(Double(rate) * seconds)
        var buffers: [CMSampleBuffer] = []
        var start = 0
        while start < total {
            let count = min(1000, total - start)
            var samples = [Int16](repeating: 0, count: count * channels)
            for i in 0..<count {
                let value = Int16(12000 * sin(2 * Double.pi * frequency * Double(start + i) / Double(rate)))
                for c in 0..<channels { samples[i * channels + c] = value }
            }
            let block = CMBlockBuffer(copying: samples.withUnsafeBytes { Data($0) })
            var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: Int32(rate)),
                                            presentationTimeStamp: CMTime(value: Int64(start), timescale: Int32(rate)),
                                            decodeTimeStamp: .invalid)
            var size = 2 * channels
            var buffer: CMSampleBuffer?
            try #require(CMSampleBufferCreateReady(allocator: nil, dataBuffer: block, formatDescription: description,
                                                   sampleCount: count, sampleTimingEntryCount: 1, sampleTimingArray: &timing,
                                                   sampleSizeEntryCount: 1, sampleSizeArray: &size,
                                                   sampleBufferOut: &buffer) == noErr)
            buffers.append(try #require(buffer))
            start += count
        }
        return buffers
    }

    /// Encodes the buffers into a new file and returns it.
    static func writeAudio(_ settings: EncoderSettings.Audio, fileType: String, name: String,
                           buffers: [CMSampleBuffer]) throws -> URL {
        let url = outputURL(name)
        let muxer = try Muxer(url: url, fileType: fileType)
        let encoder = try Encoder(settings: .audio(settings), globalHeader: Muxer.needsGlobalHeader(fileType: fileType))
        let track = try muxer.addTrack(from: encoder)
        for buffer in buffers {
            try encoder.encode(pcm: buffer)
            for packet in encoder.receivePackets() { try muxer.write(packet, track: track) }
        }
        try encoder.finish()
        for packet in encoder.receivePackets() { try muxer.write(packet, track: track) }
        try muxer.finish()
        return url
    }

    /// Sign changes of the first channel of a file decoded to mono 16-bit.
    static func zeroCrossings(_ url: URL) throws -> (crossings: Int, samples: Int) {
        let data = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-ac", "1", "-f", "s16le", "-"])
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        var crossings = 0
        for (a, b) in zip(samples, samples.dropFirst()) where (a < 0) != (b < 0) { crossings += 1 }
        return (crossings, samples.count)
    }

    @Test func aSineBecomesAACWithItsRateLengthAndFrequency() throws {
        // 44.1 kHz mono in, 48 kHz stereo AAC out: resampled, upmixed, cut into 1024-sample frames.
        let buffers = try Self.sineBuffers(rate: 44100, channels: 1, seconds: 2)
        let url = try Self.writeAudio(.init(codec: .aac, sampleRate: 48000, channelCount: 2), fileType: "ipod",
                                      name: "sine.m4a", buffers: buffers)
        let stream = try Self.firstStream(url, type: "audio")
        #expect(stream["codec_name"] as? String == "aac")
        #expect(stream["sample_rate"] as? String == "48000")
        #expect(stream["channels"] as? Int == 2)
        let duration = try #require(Double(stream["duration"] as? String ?? ""))
        #expect(abs(duration - 2) <= 1024.0 / 48000, "duration \(duration)")
        let (crossings, samples) = try Self.zeroCrossings(url)
        #expect(abs(Double(samples) / 48000 - 2) <= 1024.0 / 48000)
        // 440 Hz: two crossings per period.
        #expect(abs(crossings - 1760) <= 6, "\(crossings) zero crossings")
    }

    /// Lossless and other codecs: ffprobe's codec name, and the tone survives.
    static let audioCases: [(EncoderSettings.AudioCodec, String, Int, String)] = [
        (.appleLossless(bitDepth: 16), "ipod", 44100, "alac"),
        (.appleLossless(bitDepth: 24), "mov", 48000, "alac"),
        (.opus, "mp4", 48000, "opus"),
        (.linearPCM(bits: 16, isFloat: false), "mov", 44100, "pcm_s16le"),
        (.linearPCM(bits: 24, isFloat: false), "mov", 48000, "pcm_s24le"),
        (.linearPCM(bits: 32, isFloat: true), "mov", 48000, "pcm_f32le"),
    ]

    @Test(arguments: 0..<audioCases.count)
    func otherAudioCodecsKeepTheTone(_ index: Int) throws {
        let (codec, fileType, rate, name) = Self.audioCases[index]
        let buffers = try Self.sineBuffers(rate: rate, channels: 2, seconds: 1)
        let url = try Self.writeAudio(.init(codec: codec, sampleRate: rate, channelCount: 2), fileType: fileType,
                                      name: "\(name).\(fileType)", buffers: buffers)
        let stream = try Self.firstStream(url, type: "audio")
        #expect(stream["codec_name"] as? String == name)
        #expect(stream["sample_rate"] as? String == String(rate))
        let (crossings, samples) = try Self.zeroCrossings(url)
        #expect(abs(samples - rate) <= 1024, "\(samples) samples")
        #expect(abs(crossings - 880) <= 6, "\(crossings) zero crossings")
    }

    @Test func linearPCMIsLosslessThroughTheFile() throws {
        let buffers = try Self.sineBuffers(rate: 48000, channels: 2, seconds: 0.5)
        let url = try Self.writeAudio(.init(codec: .linearPCM(bits: 16, isFloat: false), sampleRate: 48000, channelCount: 2),
                                      fileType: "mov", name: "lossless.mov", buffers: buffers)
        let decoded = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "s16le", "-"])
        var input = Data()
        for buffer in buffers { input.append(try buffer.dataBuffer!.dataBytes()) }
        #expect(decoded == input)
    }
}
