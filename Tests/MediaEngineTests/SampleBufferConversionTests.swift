import CFFmpeg
import Foundation
import Testing
import TestSupport
import TestSupport
import OpenCoreMedia
import OpenCoreVideo
@testable import MediaEngine

/// Packets as compressed sample buffers and streams as format descriptions, checked against
/// ffprobe's packet list and the bytes of the file itself.
@Suite(.timeLimit(.minutes(10))) struct SampleBufferConversionTests {
    /// One packet as ffprobe lists it.
    struct ProbedPacket: Equatable {
        let stream: Int
        let pts: Int64?
        let dts: Int64?
        let duration: Int64
        let size: Int
        let isKey: Bool
    }

    /// `ffprobe -show_packets` of a file, in file order.
    static func probePackets(_ url: URL) throws -> [ProbedPacket] {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-show_entries",
                                                "packet=stream_index,pts,dts,duration,size,flags", "-of", "json", url.path])
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let packets = try #require(json["packets"] as? [[String: Any]])
        return packets.map { p in
            ProbedPacket(stream: p["stream_index"] as? Int ?? -1,
                         pts: (p["pts"] as? NSNumber)?.int64Value,
                         dts: (p["dts"] as? NSNumber)?.int64Value,
                         duration: (p["duration"] as? NSNumber)?.int64Value ?? 0,
                         size: Int(p["size"] as? String ?? "") ?? -1,
                         isKey: (p["flags"] as? String ?? "").hasPrefix("K"))
        }
    }

    /// The payload of the first box named `type` in a file (a plain byte search: fine for the
    /// small fixtures, whose sample data does not contain the name).
    static func box(_ type: String, in url: URL) throws -> Data {
        let file = try Data(contentsOf: url)
        let name = Data(type.utf8)
        let range = try #require(file.range(of: name))
        let sizeStart = range.lowerBound - 4
        let size = file[sizeStart..<range.lowerBound].reduce(0) { $0 << 8 | Int($1) }
        return file[range.upperBound..<(sizeStart + size)]
    }

    @Test func everyPacketKeepsFFprobesTimingAndSyncFlag() throws {
        let url = try Fixtures.h264AAC()
        let expected = try Self.probePackets(url)
        let demuxer = try Demuxer(url: url)
        let descriptions = try (0..<demuxer.streams.count).map { try #require(demuxer.formatDescription(ofStream: $0)) }
        var count = 0
        var sawNonKeyVideo = false
        while let packet = try demuxer.readPacket() {
            let probed = expected[count]
            count += 1
            let index = packet.streamIndex
            #expect(index == probed.stream)
            let timeBase = demuxer.timeBase(ofStream: index)
            let packetData = try #require(packet.pointer.pointee.data)
            let buffer = try #require(CMSampleBuffer.compressed(from: packet, formatDescription: descriptions[index],
                                                                timeBase: timeBase))
            #expect(buffer.numSamples == 1)
            #expect(buffer.formatDescription === descriptions[index])
            #expect(buffer.presentationTimeStamp == CMTime(value: probed.pts!, timescale: timeBase.den))
            #expect(buffer.decodeTimeStamp == CMTime(value: probed.dts!, timescale: timeBase.den))
            #expect(buffer.duration == CMTime(value: probed.duration, timescale: timeBase.den))
            #expect(timeBase.num == 1)
            #expect(buffer.totalSampleSize == probed.size)
            let notSync = buffer.sampleAttachments[0][.notSync]
            if probed.isKey {
                #expect(notSync == nil, "key packet \(count) has NotSync")
            } else {
                #expect((notSync as? Bool) == true, "packet \(count) lacks NotSync")
                if index == 0 { sawNonKeyVideo = true }
            }
            // The data is the packet's own memory, not a copy.
            let block = try #require(buffer.dataBuffer)
            try block.withUnsafeMutableBytes { bytes in
                #expect(bytes.baseAddress == UnsafeMutableRawPointer(packetData))
                #expect(bytes.count == probed.size)
            }
        }
        #expect(count == expected.count)
        #expect(sawNonKeyVideo)
    }

    @Test func theSampleDataOutlivesThePacketVariable() throws {
        let url = try Fixtures.h264AAC()
        let demuxer = try Demuxer(url: url)
        let description = try #require(demuxer.formatDescription(ofStream: 0))
        var buffers: [CMSampleBuffer] = []
        var copies: [Data] = []
        while let packet = try demuxer.readPacket(), buffers.count < 10 {
            guard packet.streamIndex == 0 else { continue }
            copies.append(Data(bytes: packet.pointer.pointee.data, count: packet.size))
            buffers.append(try #require(CMSampleBuffer.compressed(from: packet, formatDescription: description,
                                                                  timeBase: demuxer.timeBase(ofStream: 0))))
        }
        // Later reads must not disturb earlier samples.
        while try demuxer.readPacket() != nil {}
        for (buffer, copy) in zip(buffers, copies) {
            let block = try #require(buffer.dataBuffer)
            #expect(try block.withUnsafeMutableBytes { Data($0) } == copy)
        }
    }

    @Test func h264AndAACDescriptionsMatchTheFile() throws {
        let url = try Fixtures.h264AAC()
        let demuxer = try Demuxer(url: url)
        let video = try #require(demuxer.formatDescription(ofStream: 0))
        #expect(video.mediaType == .video)
        #expect(CMFormatDescriptionGetMediaSubType(video) == kCMVideoCodecType_H264)
        #expect(CMVideoFormatDescriptionGetDimensions(video) == CMVideoDimensions(width: 320, height: 240))
        let atoms = try #require(CMFormatDescriptionGetExtension(video,
            extensionKey: kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms) as? NSDictionary)
        let avcC = try #require(atoms["avcC"] as? NSData)
        #expect(avcC as Data == (try Self.box("avcC", in: url)))

        let audio = try #require(demuxer.formatDescription(ofStream: 1))
        #expect(audio.mediaType == .audio)
        #expect(CMFormatDescriptionGetMediaSubType(audio) == kAudioFormatMPEG4AAC)
        let asbd = try #require(audio.audioStreamBasicDescription)
        #expect(asbd.mSampleRate == 48_000)
        #expect(asbd.mChannelsPerFrame == 2)
        #expect(asbd.mFormatID == kAudioFormatMPEG4AAC)
        #expect(asbd.mFramesPerPacket == 1024)
        #expect(asbd.mBytesPerPacket == 0 && asbd.mBitsPerChannel == 0)
        #expect(audio.audioChannelLayout?.mChannelLayoutTag == kAudioChannelLayoutTag_Stereo)
        // The magic cookie is the AudioSpecificConfig, as ffprobe reports the extradata.
        var cookieSize = 0
        let cookie = try #require(CMAudioFormatDescriptionGetMagicCookie(audio, sizeOut: &cookieSize))
        let probe = String(decoding: try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_streams",
                                                                  "-show_data", url.path]), as: UTF8.self)
        let hex = try #require(probe.components(separatedBy: "extradata=\n").dropFirst().first?
            .split(separator: "\n").first)
        // "00000000: 1190 56e5 00    ..V.." → the hex groups between the offset and the text.
        let groups = hex.split(separator: ":", maxSplits: 1)[1].prefix(41).split(separator: " ")
        let expected = groups.joined().chunked(2).map { UInt8($0, radix: 16)! }
        #expect(Array(UnsafeRawBufferPointer(start: cookie, count: cookieSize)) == expected)
    }

    @Test func annexBH264InMPEGTSHasNoAvcC() throws {
        let url = try Fixtures.make("h264.ts", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "1",
                                                "-c:v", "libx264"])
        let demuxer = try Demuxer(url: url)
        let video = try #require(demuxer.formatDescription(ofStream: 0))
        #expect(CMFormatDescriptionGetMediaSubType(video) == kCMVideoCodecType_H264)
        #expect(CMFormatDescriptionGetExtension(video,
            extensionKey: kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms) == nil)
    }

    @Test func colourAndAspectBecomeExtensions() throws {
        let url = try Fixtures.make("bt709-pasp.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "0.2",
                                                       "-c:v", "libx264", "-color_primaries", "bt709", "-color_trc", "bt709",
                                                       "-colorspace", "bt709", "-color_range", "tv", "-aspect", "16:9"])
        let video = try #require(try Demuxer(url: url).formatDescription(ofStream: 0))
        func ext(_ key: String) -> Any? { CMFormatDescriptionGetExtension(video, extensionKey: key) }
        #expect(ext(kCMFormatDescriptionExtension_ColorPrimaries) as? String == kCVImageBufferColorPrimaries_ITU_R_709_2)
        #expect(ext(kCMFormatDescriptionExtension_TransferFunction) as? String == kCVImageBufferTransferFunction_ITU_R_709_2)
        #expect(ext(kCMFormatDescriptionExtension_YCbCrMatrix) as? String == kCVImageBufferYCbCrMatrix_ITU_R_709_2)
        #expect((ext(kCMFormatDescriptionExtension_FullRangeVideo) as? NSNumber)?.boolValue == false)
        // 320x240 shown at 16:9 → pixels 4:3.
        let aspect = try #require(ext(kCMFormatDescriptionExtension_PixelAspectRatio) as? NSDictionary)
        #expect((aspect[kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing] as? NSNumber)?.intValue == 4)
        #expect((aspect[kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing] as? NSNumber)?.intValue == 3)
    }

    @Test func linearPCMGetsACompleteStreamDescription() throws {
        let url = try Fixtures.make("s24-stereo.wav", ["-f", "lavfi", "-i", "sine=sample_rate=44100:duration=0.1",
                                                       "-ac", "2", "-c:a", "pcm_s24le"])
        let audio = try #require(try Demuxer(url: url).formatDescription(ofStream: 0))
        #expect(CMFormatDescriptionGetMediaSubType(audio) == kAudioFormatLinearPCM)
        #expect(audio.audioStreamBasicDescription == AudioStreamBasicDescription(
            mSampleRate: 44_100, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 6, mFramesPerPacket: 1, mBytesPerFrame: 6, mChannelsPerFrame: 2,
            mBitsPerChannel: 24, mReserved: 0))
    }
}

extension StringProtocol {
    /// The string cut into pieces of `size` characters.
    fileprivate func chunked(_ size: Int) -> [String] {
        var pieces: [String] = []
        var index = startIndex
        while index < endIndex {
            let end = self.index(index, offsetBy: size, limitedBy: endIndex) ?? endIndex
            pieces.append(String(self[index..<end]))
            index = end
        }
        return pieces
    }
}
