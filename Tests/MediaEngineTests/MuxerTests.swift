import CFFmpeg
import Foundation
import Testing
import TestSupport
import OpenCoreMedia
import OpenCoreVideo
@testable import MediaEngine

/// The muxer: passthrough remuxing, box layout, fragments, refusal to overwrite, cancellation
/// and I/O errors, checked with ffprobe and the file's own bytes.
@Suite(.timeLimit(.minutes(10))) struct MuxerTests {
    /// The top-level boxes of an ISO file, in order.
    static func topLevelBoxes(_ url: URL) throws -> [String] {
        let data = try Data(contentsOf: url)
        var names: [String] = []
        var offset = 0
        while offset + 8 <= data.count {
            var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let name = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1, offset + 16 <= data.count {
                size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
            } else if size == 0 {
                size = data.count - offset
            }
            names.append(name)
            guard size >= 8 else { break }
            offset += size
        }
        return names
    }

    /// A short H.264 movie written with the given options.
    static func movie(_ name: String, seconds: Int = 2, options: Muxer.Options) throws -> URL {
        let frames = try (0..<(30 * seconds)).map { (try EncoderTests.bgraFrame($0 % 60), CMTime(value: Int64($0), timescale: 30)) }
        return try EncoderTests.writeVideo(.init(codec: .h264, width: 320, height: 240, expectedFrameRate: 30),
                                           fileType: "mp4", name: name, frames: frames, options: options)
    }

    @Test func passthroughKeepsEveryPacketAndTheConfiguration() throws {
        let source = try Fixtures.h264AAC()
        let demuxer = try Demuxer(url: source)
        let url = EncoderTests.outputURL("remux.mp4")
        let muxer = try Muxer(url: url, fileType: "mp4")
        var descriptions: [CMFormatDescription] = []
        for index in demuxer.streams.indices {
            let description = try #require(demuxer.formatDescription(ofStream: index))
            descriptions.append(description)
            let language = demuxer.streams[index].languageCode
            try muxer.addTrack(passthrough: description, timeScale: demuxer.timeBase(ofStream: index).den,
                               options: MuxerTrackOptions(languageCode: language))
        }
        while let packet = try demuxer.readPacket() {
            let index = packet.streamIndex
            let buffer = try #require(CMSampleBuffer.compressed(from: packet, formatDescription: descriptions[index],
                                                                timeBase: demuxer.timeBase(ofStream: index)))
            try muxer.write(sampleBuffer: buffer, track: index)
        }
        try muxer.finish()

        let original = try Fixtures.probe(source), copy = try Fixtures.probe(url)
        let originalStreams = try #require(original["streams"] as? [[String: Any]])
        let copiedStreams = try #require(copy["streams"] as? [[String: Any]])
        try #require(originalStreams.count == copiedStreams.count)
        for (a, b) in zip(originalStreams, copiedStreams) {
            for key in ["codec_name", "profile", "width", "height", "pix_fmt", "sample_rate", "channels", "extradata_size",
                        "time_base"] {
                #expect(String(describing: a[key]) == String(describing: b[key]), "\(key)")
            }
        }
        let copiedAudio = try #require(copiedStreams.first { $0["codec_type"] as? String == "audio" })
        #expect((copiedAudio["tags"] as? [String: Any])?["language"] as? String == "eng")
        // The configuration records are byte for byte the same.
        let copied = try Demuxer(url: url)
        for index in demuxer.streams.indices {
            #expect(copied.formatDescription(ofStream: index)?.codecPrivateData == descriptions[index].codecPrivateData)
        }
        for index in demuxer.streams.indices {
            let (a, aBase) = try EncoderTests.probePackets(source, stream: index)
            let (b, bBase) = try EncoderTests.probePackets(url, stream: index)
            #expect(aBase == bBase)
            #expect(a.map(\.pts) == b.map(\.pts))
            #expect(a.map(\.dts) == b.map(\.dts))
            #expect(a.map(\.size) == b.map(\.size))
            #expect(a.map(\.isKey) == b.map(\.isKey))
        }
    }

    @Test func fastStartPutsTheMovieHeaderFirst() throws {
        let plain = try Self.topLevelBoxes(try Self.movie("plain.mp4", options: Muxer.Options()))
        let fast = try Self.topLevelBoxes(try Self.movie("fast.mp4", options: Muxer.Options(fastStart: true)))
        #expect(plain.firstIndex(of: "mdat")! < plain.firstIndex(of: "moov")!)
        #expect(fast.firstIndex(of: "moov")! < fast.firstIndex(of: "mdat")!)
    }

    @Test func fragmentedMoviesHaveFragmentsAndAllTheirFrames() throws {
        let url = try Self.movie("fragmented.mp4", seconds: 3,
                                 options: Muxer.Options(movieFragmentInterval: CMTime(value: 1, timescale: 1)))
        let boxes = try Self.topLevelBoxes(url)
        #expect(boxes.first == "ftyp" && boxes.dropFirst().first == "moov")
        #expect(boxes.filter { $0 == "moof" }.count >= 3)
        let (packets, _) = try EncoderTests.probePackets(url)
        #expect(packets.count == 90)
    }

    @Test func aFragmentedMovieCutOffBeforeFinishingIsReadableUpToItsLastFragment() throws {
        // The file as a killed writer leaves it: copied before finish().
        let url = EncoderTests.outputURL("killed.mp4")
        let cut = EncoderTests.outputURL("killed-copy.mp4")
        let muxer = try Muxer(url: url, fileType: "mp4",
                              options: Muxer.Options(movieFragmentInterval: CMTime(value: 1, timescale: 1)))
        let encoder = try Encoder(settings: .video(.init(codec: .h264, width: 320, height: 240, expectedFrameRate: 30)),
                                  globalHeader: true)
        let track = try muxer.addTrack(from: encoder)
        for k in 0..<90 {
            try encoder.encode(try EncoderTests.bgraFrame(k % 60), presentationTime: CMTime(value: Int64(k), timescale: 30))
            for packet in encoder.receivePackets() { try muxer.write(packet, track: track) }
        }
        try FileManager.default.copyItem(at: url, to: cut)
        muxer.cancel()
        #expect(!FileManager.default.fileExists(atPath: url.path))

        let data = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "0", "-show_entries",
                                                "packet=pts_time", "-of", "csv=p=0", cut.path])
        let times = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
        let end = (times.max() ?? 0) + 1.0 / 30
        #expect(end >= 2, "the cut file holds \(end) s")
        // And our own demuxer opens it too.
        let demuxer = try Demuxer(url: cut)
        var count = 0
        while try demuxer.readPacket() != nil { count += 1 }
        #expect(count >= 60)
    }

    @Test func anExistingFileIsNeverOverwritten() throws {
        let url = EncoderTests.outputURL("existing.mp4")
        try Data("keep me".utf8).write(to: url)
        #expect(throws: EngineError.self) { try Muxer(url: url, fileType: "mp4") }
        #expect(try Data(contentsOf: url) == Data("keep me".utf8))
        let directory = EncoderTests.outputURL("directory")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        #expect(throws: EngineError.self) { try Muxer(url: directory, fileType: "mp4") }
    }

    @Test func cancelRemovesThePartialFile() throws {
        let url = EncoderTests.outputURL("cancelled.mov")
        let muxer = try Muxer(url: url, fileType: "mov")
        let encoder = try Encoder(settings: .video(.init(codec: .jpeg, width: 320, height: 240)), globalHeader: true)
        let track = try muxer.addTrack(from: encoder)
        try encoder.encode(try EncoderTests.bgraFrame(0), presentationTime: .zero)
        for packet in encoder.receivePackets() { try muxer.write(packet, track: track) }
        #expect(FileManager.default.fileExists(atPath: url.path))
        muxer.cancel()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(throws: EngineError.self) { try muxer.finish() }
    }

    @Test func anUnknownContainerOrCodecTheContainerRefusesIsAnError() throws {
        #expect(throws: EngineError.self) { try Muxer(url: EncoderTests.outputURL("x.xyz"), fileType: "no-such-muxer") }
        // ProRes has no MP4 tag: the header fails, and the file can be cancelled away.
        let url = EncoderTests.outputURL("prores.mp4")
        let muxer = try Muxer(url: url, fileType: "mp4")
        let encoder = try Encoder(settings: .video(.init(codec: .proRes422, width: 320, height: 240)), globalHeader: true)
        try muxer.addTrack(from: encoder)
        #expect(throws: EngineError.self) { try muxer.start() }
        muxer.cancel()
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aFullDiskIsAnErrorNotACrash() throws {
        // /dev/full fails every write with ENOSPC, as a full file system does; the muxer allows
        // character devices since nothing is overwritten.
        let muxer = try Muxer(url: URL(fileURLWithPath: "/dev/full"), fileType: "mp4")
        let encoder = try Encoder(settings: .video(.init(codec: .h264, width: 320, height: 240)), globalHeader: true)
        let track = try muxer.addTrack(from: encoder)
        var failure: EngineError?
        do {
            for k in 0..<30 {
                try encoder.encode(try EncoderTests.bgraFrame(k), presentationTime: CMTime(value: Int64(k), timescale: 30))
                for packet in encoder.receivePackets() { try muxer.write(packet, track: track) }
            }
            try encoder.finish()
            for packet in encoder.receivePackets() { try muxer.write(packet, track: track) }
            try muxer.finish()
        } catch let error as EngineError {
            failure = error
        }
        let error = try #require(failure)
        #expect(error.code == cffmpeg_averror(ENOSPC), "\(error)")
        muxer.cancel()
        #expect(FileManager.default.fileExists(atPath: "/dev/full"))
    }

    @Test func trackOptionsAndMetadataReachTheFile() throws {
        let rotation = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 240, ty: 0)
        let frames = try (0..<10).map { (try EncoderTests.bgraFrame($0), CMTime(value: Int64($0), timescale: 30)) }
        let url = try EncoderTests.writeVideo(.init(codec: .h264, width: 320, height: 240), fileType: "mov", name: "tagged.mov",
                                              frames: frames,
                                              options: Muxer.Options(metadata: [(key: "title", value: "Writer test")]),
                                              trackOptions: MuxerTrackOptions(timeScale: 600, languageCode: "fra",
                                                                              transform: rotation))
        let probe = try Fixtures.probe(url)
        let format = try #require(probe["format"] as? [String: Any])
        #expect((format["tags"] as? [String: Any])?["title"] as? String == "Writer test")
        let stream = try EncoderTests.firstStream(url, type: "video")
        #expect((stream["tags"] as? [String: Any])?["language"] as? String == "fra")
        #expect(stream["time_base"] as? String == "1/19200") // 600 doubled up to at least 10000
        let demuxer = try Demuxer(url: url)
        #expect(demuxer.streams[0].displayMatrix == MuxerTrackOptions.displayMatrix(rotation))
        #expect(demuxer.streams[0].displayMatrix?[1] == 65536 && demuxer.streams[0].displayMatrix?[6] == 240 << 16)
    }
}
