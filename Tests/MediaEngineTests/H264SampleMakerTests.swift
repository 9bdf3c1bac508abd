import Foundation
import Testing
import TestSupport
import OpenCoreMedia
@testable import MediaEngine

/// H.264 access units in Annex B form (as cameras send them) made into `'avc1'` samples: the
/// splitting against hand-made bytes, and a whole camera-like stream stored in a movie whose
/// decode and key frames ffmpeg and ffprobe compare with the stream's own.
@Suite(.timeLimit(.minutes(10))) struct H264SampleMakerTests {
    static let time = CMTime(value: 1, timescale: 30)

    /// The bytes of a sample buffer's data.
    static func bytes(_ sample: CMSampleBuffer) throws -> [UInt8] {
        let block = try #require(sample.dataBuffer)
        var bytes = [UInt8](repeating: 0, count: block.dataLength)
        CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: bytes.count, destination: &bytes)
        return bytes
    }

    @Test func splitsAtStartCodesAndMovesParameterSetsOutOfBand() throws {
        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02]
        let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
        let idr: [UInt8] = [0x65, 0x88, 0x00, 0x00, 0x03, 0x01, 0x7F]  // holds an emulation-prevented 00 00 03
        let sei: [UInt8] = [0x06, 0x05, 0x01, 0xAA, 0x80]
        // A delimiter after a 4-byte start code, the others after 3-byte ones, zero padding at the end.
        let keyUnit = [0, 0, 0, 1, 0x09, 0xF0] + [0, 0, 1] + sps + [0, 0, 0, 1] + pps + [0, 0, 1] + sei
            + [0, 0, 1] + idr + [0, 0]
        let maker = H264SampleMaker(width: 320, height: 240)
        let before: [UInt8] = [0, 0, 0, 1, 0x41, 0x9A, 0x10]
        #expect(before.withUnsafeBytes { maker.sample(of: $0, presentationTime: .zero, duration: Self.time) } == nil,
                "a picture before the first parameter sets cannot be described")

        let key = try #require(keyUnit.withUnsafeBytes { maker.sample(of: $0, presentationTime: Self.time, duration: Self.time) })
        #expect(try Self.bytes(key) == [0, 0, 0, UInt8(sei.count)] + sei + [0, 0, 0, UInt8(idr.count)] + idr)
        #expect(key.isSyncSample(at: 0))
        #expect(key.presentationTimeStamp == Self.time && key.duration == Self.time && !key.decodeTimeStamp.isValid)
        let format = try #require(key.formatDescription)
        #expect(CMFormatDescriptionGetMediaSubType(format) == kCMVideoCodecType_H264)
        #expect(CMVideoFormatDescriptionGetDimensions(format).width == 320)
        let atoms = CMFormatDescriptionGetExtension(format, extensionKey: kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms)
        let avcC = try #require((atoms as? [String: Any])?["avcC"] as? Data)
        #expect([UInt8](avcC) == [1, 0x42, 0xC0, 0x1E, 0xFF, 0xE1, 0, UInt8(sps.count)] + sps + [1, 0, UInt8(pps.count)] + pps)

        let delta = try #require(before.withUnsafeBytes { maker.sample(of: $0, presentationTime: Self.time, duration: Self.time) })
        #expect(try Self.bytes(delta) == [0, 0, 0, 3, 0x41, 0x9A, 0x10])
        #expect(!delta.isSyncSample(at: 0))
        #expect(delta.formatDescription === format, "the same parameter sets keep the format description")
        #expect(maker.heldPicture && maker.parameterSets == [0, 0, 0, 1] + sps + [0, 0, 0, 1] + pps)
        let setsAlone = [0, 0, 0, 1] + sps + [0, 0, 0, 1] + pps
        #expect(setsAlone.withUnsafeBytes { maker.sample(of: $0, presentationTime: Self.time, duration: Self.time) } == nil)
        #expect(!maker.heldPicture, "parameter sets alone are no picture")

        let changed = [0, 0, 1] + sps.dropLast() + [0x04] + [0, 0, 1] + pps + [0, 0, 1] + idr
        let next = try #require(changed.withUnsafeBytes { maker.sample(of: $0, presentationTime: Self.time, duration: Self.time) })
        #expect(next.formatDescription !== format, "new parameter sets make a new format description")
        let delimiter: [UInt8] = [0, 0, 0, 1, 0x09, 0xF0]
        #expect(delimiter.withUnsafeBytes {
            maker.sample(of: $0, presentationTime: Self.time, duration: Self.time)
        } == nil, "a delimiter alone holds no picture")
    }

    /// The avcC record made from a stream of each H.264 profile x264 encodes (Constrained
    /// Baseline, Main, High, High 4:4:4 Predictive) is the one FFmpeg's MP4 muxer stores for it.
    @Test(arguments: [("ultrafast", "baseline", "yuv420p", 66), ("medium", "main", "yuv420p", 77),
                      ("medium", "high", "yuv420p", 100), ("medium", "high444", "yuv444p", 244)])
    func theConfigurationRecordIsFFmpegs(preset: String, profile: String, pixelFormat: String, profileNumber: Int) throws {
        let clip = try Fixtures.make("camera-\(profile).h264", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "5", "-c:v", "libx264",
            "-preset", preset, "-profile:v", profile, "-bf", "0", "-pix_fmt", pixelFormat, "-f", "h264"])
        let stream = try Data(contentsOf: clip)
        let first = try #require(try DecodedClip.accessUnits(of: clip).first)
        let maker = H264SampleMaker(width: 320, height: 240)
        let sample = try #require(stream[first].withUnsafeBytes { maker.sample(of: $0, presentationTime: .zero, duration: Self.time) })
        let atoms = CMFormatDescriptionGetExtension(try #require(sample.formatDescription),
                                                    extensionKey: kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms)
        let ours = try #require((atoms as? [String: Any])?["avcC"] as? Data)

        let remuxed = EncoderTests.outputURL("camera-\(profile).mp4")
        _ = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", clip.path, "-c", "copy", remuxed.path])
        let file = try Data(contentsOf: remuxed)
        let atom = try #require(file.range(of: Data("avcC".utf8)), "FFmpeg's movie has an avcC atom")
        let size = file[(atom.lowerBound - 4)..<atom.lowerBound].reduce(0) { $0 << 8 | Int($1) }
        let ffmpegs = file[atom.upperBound..<(atom.lowerBound - 4 + size)]
        #expect([UInt8](ours) == [UInt8](ffmpegs))
        #expect(ours[1] == profileNumber, "x264 encoded profile \(ours[1])")
    }

    @Test func aCameraStreamStoredAsSamplesDecodesLikeTheStream() throws {
        // A camera-like stream: headers repeated at every key frame (every 15 frames), access
        // unit delimiters, no B-frames.
        let clip = try Fixtures.make("camera.h264", [
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "45", "-c:v", "libx264",
            "-preset", "ultrafast", "-bf", "0", "-g", "15", "-x264-params", "repeat-headers=1:aud=1",
            "-pix_fmt", "yuv420p", "-f", "h264"])
        let stream = try Data(contentsOf: clip)
        // ffprobe's parser splits the stream into access units: the oracle of where each starts.
        let units = try DecodedClip.accessUnits(of: clip)
        try #require(units.count == 45)

        let maker = H264SampleMaker(width: 320, height: 240)
        let url = EncoderTests.outputURL("camera.mov")
        let muxer = try Muxer(url: url, fileType: "mov")
        var track: Int?
        var syncFrames: [Int] = []
        for (index, unit) in units.enumerated() {
            let sample = try #require(stream[unit].withUnsafeBytes {
                maker.sample(of: $0, presentationTime: CMTime(value: Int64(index), timescale: 30), duration: Self.time)
            })
            if track == nil { track = try muxer.addTrack(passthrough: try #require(sample.formatDescription), timeScale: 30) }
            if sample.isSyncSample(at: 0) { syncFrames.append(index) }
            try muxer.write(sampleBuffer: sample, track: try #require(track))
        }
        try muxer.finish()
        #expect(syncFrames == [0, 15, 30])

        let decode = { (url: URL) in
            try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        }
        let ours = try decode(url), reference = try decode(clip)
        #expect(ours.count == 45 * 320 * 240 * 3 / 2)
        #expect(ours == reference, "the movie decodes to the stream's pictures")
        let keyFlags = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v",
                                                                     "-show_entries", "packet=flags", "-of", "csv=p=0", url.path]),
                              as: UTF8.self).split(separator: "\n").enumerated().filter { $0.element.hasPrefix("K") }.map(\.offset)
        #expect(keyFlags == [0, 15, 30], "the movie marks the key frames")
        let probe = try Fixtures.probe(url)
        let video = try #require((probe["streams"] as? [[String: Any]])?.first)
        #expect(video["codec_tag_string"] as? String == "avc1" && video["profile"] as? String != nil)
    }
}
