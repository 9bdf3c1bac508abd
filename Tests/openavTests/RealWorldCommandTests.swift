import Foundation
import Testing
import TestSupport

/// The commands over the kinds of file issue 40 found in people's collections, run as the README
/// shows them and judged by ffprobe and ffmpeg.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct RealWorldCommandTests {
    static func output(_ name: String) -> String {
        Fixtures.folder.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    }

    static func openav(_ arguments: [String]) throws -> (Int32, String, String) {
        try ProbeCommandTests.run(try ProbeCommandTests.openav, arguments)
    }

    /// How many video frames ffmpeg decodes from a file, and whether it decodes them without
    /// an error.
    static func decodedFrames(_ path: String) throws -> Int {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    static let timestampless: [String] = ["divx.avi", "mpeg1.mpg"]

    static func timestamplessURL(_ name: String) throws -> URL {
        name == "divx.avi" ? try RealWorldFixtures.divxAVI() : try RealWorldFixtures.mpeg1ProgramStream()
    }

    /// Kind 1: packets without timestamps are exported, copied and shown at their times.
    @Test(arguments: timestampless) func filesWithUnstampedPacketsExportConvertAndShowFrames(_ name: String) throws {
        let source = try Self.timestamplessURL(name)
        let times = try RealWorldFixtures.ffmpegFrameTimes(source, stream: "v:0")
        try #require(!times.isEmpty)

        let exported = Self.output("exported.mov")
        let export = try Self.openav(["export", source.path, exported, "--preset", "640x480"])
        #expect(export.0 == 0, "\(name): \(export.2)")
        #expect(try Self.decodedFrames(exported) == times.count, "\(name) export")

        let copied = Self.output("copied.mp4")
        let copy = try Self.openav(["convert", source.path, copied, "--video", "copy"])
        #expect(copy.0 == 0, "\(name): \(copy.2)")
        #expect(try Self.decodedFrames(copied) == times.count, "\(name) copy")
        // Copied packets keep their order: ffmpeg decodes the copy without an error.
        #expect(throws: Never.self) { try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-xerror", "-i", copied, "-f", "null", "-"]) }

        // The frame ffmpeg shows at 1 s, exactly.
        let still = Self.output("still.png")
        let thumbnail = try Self.openav(["thumbnail", source.path, "--at", "1", "--exact", "--output", still])
        try #require(thumbnail.0 == 0, "\(name): \(thumbnail.2)")
        let seconds = times.map { Double($0.value * $0.num) / Double($0.den) }
        let shown = try #require(seconds.lastIndex { $0 <= 1 })
        #expect(thumbnail.1.contains(String(format: "at %.3f s", seconds[shown])), "\(name): \(thumbnail.1)")
        let reference = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", source.path, "-map", "0:v:0",
                                                    "-vf", "select=eq(n\\,\(shown))", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let image = try DecodedImage(URL(fileURLWithPath: still))
        #expect(PixelComparison.psnr([UInt8](image.luma), [UInt8](reference)) >= 35, "\(name)")
    }
}

extension RealWorldCommandTests {
    /// Kind 2: cover art is not a video track; converted and exported audio files keep it.
    @Test(arguments: ["cover-art.mp3", "cover-art.m4a"]) func coverArtIsKeptNotConvertedAsVideo(_ name: String) throws {
        let source = name.hasSuffix(".mp3") ? try RealWorldFixtures.coverArtMP3() : try RealWorldFixtures.coverArtM4A()
        let picture = try RealWorldFixtures.ffmpegAttachedPicture(source)
        try #require(!picture.isEmpty)
        let probe = try Self.openav(["probe", source.path])
        #expect(probe.0 == 0)
        #expect(probe.1.contains("common/artwork: PNG image, \(picture.count) bytes"), "\(probe.1)")
        #expect(probe.1.contains("tracks: 1"), "\(probe.1)")

        let outputs = [
            (["convert", source.path], Self.output("converted.mp4")),
            (["convert", source.path], Self.output("converted.m4a")),
            (["export", source.path], Self.output("exported.m4a")),
        ]
        for (command, output) in outputs {
            let arguments = command + [output] + (command[0] == "export" ? ["--preset", "AppleM4A"] : [])
            let run = try Self.openav(arguments)
            #expect(run.0 == 0, "\(arguments): \(run.2)")
            let streams = try #require(try Fixtures.probe(URL(fileURLWithPath: output))["streams"] as? [[String: Any]])
            #expect(streams.map { $0["codec_name"] as? String } == ["aac", "png"], "\(arguments)")
            #expect(try RealWorldFixtures.ffmpegAttachedPicture(URL(fileURLWithPath: output)) == picture, "\(arguments)")
        }
    }
}

extension RealWorldCommandTests {
    /// Kind 5: of three video streams only the last has frames; that one is converted,
    /// exported and shown. A file whose only video stream is empty fails a job asked for video.
    @Test func emptyVideoStreamsAreNotChosenAndNoVideoFails() throws {
        let source = try RealWorldFixtures.emptyVideoStreamsASF()
        let counts = try RealWorldFixtures.packetCounts(source)
        let frames = try #require(counts.dropLast().last)
        for (arguments, output) in [(["export", source.path], Self.output("exported.mov")), (["convert", source.path], Self.output("converted.mp4"))] {
            let run = try Self.openav(arguments + [output] + (arguments[0] == "export" ? ["--preset", "640x480"] : []))
            #expect(run.0 == 0, "\(arguments): \(run.2)")
            #expect(try Self.decodedFrames(output) == frames, "\(arguments)")
        }
        let still = Self.output("still.png")
        let thumbnail = try Self.openav(["thumbnail", source.path, "--at", "1", "--output", still])
        #expect(thumbnail.0 == 0, "\(thumbnail.2)")
        #expect(try DecodedImage(URL(fileURLWithPath: still)).width == 320)

        let empty = try RealWorldFixtures.onlyEmptyVideoASF()
        for (arguments, output) in [(["export", empty.path], Self.output("none.mov")), (["convert", empty.path], Self.output("none.mp4"))] {
            let run = try Self.openav(arguments + [output] + (arguments[0] == "export" ? ["--preset", "640x480"] : []))
            #expect(run.0 == 1 && run.2.contains("gave no frames"), "\(arguments): \(run.0) \(run.2)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        // Asked for sound only, the same file converts.
        let sound = Self.output("sound.m4a")
        #expect(try Self.openav(["convert", empty.path, sound]).0 == 0)
    }
}

extension RealWorldCommandTests {
    /// Kind 7: MPEG-4 Part 2 copied out of an MP4 keeps its decoder configuration and decodes
    /// to the source's very pictures.
    @Test func mp4vCopiedOutOfMP4Decodes() throws {
        let source = try RealWorldFixtures.mp4vMP4()
        let hashes = try RealWorldFixtures.decodedFrameHashes(source)
        try #require(!hashes.isEmpty)
        for output in [Self.output("copied.mp4"), Self.output("copied.mov")] {
            let run = try Self.openav(["convert", source.path, output, "--video", "copy"])
            #expect(run.0 == 0, "\(run.2)")
            let video = try #require(try Fixtures.probe(URL(fileURLWithPath: output))["streams"] as? [[String: Any]])[0]
            #expect(video["width"] as? Int == 320 && video["height"] as? Int == 240, "\(output)")
            #expect(try RealWorldFixtures.decodedFrameHashes(URL(fileURLWithPath: output)) == hashes, "\(output)")
        }
    }
}

extension RealWorldCommandTests {
    /// Kind 6: an anamorphic 720x576 (64:45) picture exports at its shown shape in square
    /// pixels, converts with its pixels and their shape kept, and thumbnails at 1024x576.
    @Test func anamorphicVideoKeepsItsShape() throws {
        let source = try RealWorldFixtures.anamorphicMPEG2()
        let exported = Self.output("anamorphic.mov")
        #expect(try Self.openav(["export", source.path, exported, "--preset", "640x480"]).0 == 0)
        let shown = try RealWorldFixtures.videoGeometry(URL(fileURLWithPath: exported))
        #expect((shown.width, shown.height, shown.pixelAspect, shown.displayAspect) == (640, 360, "1:1", "16:9"))

        let converted = Self.output("anamorphic.mp4")
        #expect(try Self.openav(["convert", source.path, converted]).0 == 0)
        let kept = try RealWorldFixtures.videoGeometry(URL(fileURLWithPath: converted))
        let original = try RealWorldFixtures.videoGeometry(source)
        #expect((kept.width, kept.height, kept.pixelAspect, kept.displayAspect)
                == (original.width, original.height, original.pixelAspect, original.displayAspect))

        let still = Self.output("anamorphic.png")
        #expect(try Self.openav(["thumbnail", source.path, "--output", still]).0 == 0)
        let image = try DecodedImage(URL(fileURLWithPath: still))
        #expect((image.width, image.height) == (1024, 576))
    }
}

extension RealWorldCommandTests {
    /// Kind 10: a codec copied into a container that cannot carry it fails before anything is
    /// written, naming the codec and the container that can (ffmpeg itself fails on these:
    /// "codec not currently supported in container", FLAC in MP4 "experimental").
    @Test func aCopyIntoAContainerThatCannotCarryTheCodecSaysWhich() throws {
        let cases: [(URL, String, String, String?)] = [
            (try RealWorldFixtures.opusOgg(), "mov", "opus", ".mp4"),
            (try RealWorldFixtures.flacFile(), "mov", "flac", nil),
            (try RealWorldFixtures.flacFile(), "mp4", "flac", nil),
        ]
        for (source, container, codec, alternative) in cases {
            let output = Self.output("copied.\(container)")
            #expect(throws: (any Error).self, "ffmpeg copies \(codec) into .\(container)") {
                try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", source.path, "-c", "copy", Self.output("ffmpeg.\(container)")])
            }
            let run = try Self.openav(["convert", source.path, output, "--audio", "copy"])
            #expect(run.0 == 1, "\(codec) in .\(container)")
            #expect(run.2.contains("a .\(container) file cannot carry \(codec)"), "\(run.2)")
            if let alternative { #expect(run.2.contains("\(alternative) can"), "\(run.2)") }
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        // Where the container can carry it, the copy is made and decodes.
        let copied = Self.output("opus.mp4")
        #expect(try Self.openav(["convert", try RealWorldFixtures.opusOgg().path, copied, "--audio", "copy"]).0 == 0)
        let streams = try #require(try Fixtures.probe(URL(fileURLWithPath: copied))["streams"] as? [[String: Any]])
        #expect(streams.map { $0["codec_name"] as? String } == ["opus"])
    }
}

extension RealWorldCommandTests {
    /// Kind 9: probe gives tracks of codecs without a CoreMedia code FFmpeg's codec name, their
    /// sample rate and channels, and video its frame rate where only the base rate is stated.
    @Test(arguments: RealWorldFixtures.codecsWithoutCoreMediaCodes) func probeDescribesCodecsWithoutCoreMediaCodes(_ name: String) throws {
        let source = try RealWorldFixtures.codecWithoutCoreMediaCode(name)
        let stream = try #require((try Fixtures.probe(source)["streams"] as? [[String: Any]])?.first)
        let run = try Self.openav(["probe", "--json", source.path])
        try #require(run.0 == 0, "\(run.2)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.1.utf8)) as? [String: Any])
        let track = try #require((report["tracks"] as? [[String: Any]])?.first)
        #expect(track["codec"] as? String == stream["codec_name"] as? String, "\(name)")
        if stream["codec_type"] as? String == "audio" {
            #expect((track["sampleRate"] as? Double).map { String(Int($0)) } == stream["sample_rate"] as? String, "\(name)")
            #expect(track["channels"] as? Int == stream["channels"] as? Int, "\(name)")
        } else {
            let rate = try #require((stream["r_frame_rate"] as? String)?.split(separator: "/").compactMap { Double($0) })
            #expect(abs((track["frameRate"] as? Double ?? 0) - rate[0] / rate[1]) < 0.001, "\(name)")
        }
    }
}

extension RealWorldCommandTests {
    /// Kind 8: a truncated AVI ffmpeg cannot open fails every command clearly and leaves
    /// nothing; a truncated MPEG-TS (AVCHD) of which ffmpeg decodes some frames converts those,
    /// leaving out the sound track that holds no packet, as ffmpeg does.
    @Test func truncatedFilesFailClearlyOrGiveWhatFFmpegGives() throws {
        let avi = try RealWorldFixtures.truncated("plain.avi", percent: 3)
        #expect(throws: (any Error).self) { try Fixtures.run("ffprobe", ["-v", "error", avi.path]) }
        for (command, output) in [("convert", "out.mp4"), ("export", "out.mov"), ("thumbnail", "out.png")] {
            let path = Self.output(output)
            var arguments = [command, avi.path]
            arguments += command == "thumbnail" ? ["--output", path] : [path]
            let run = try Self.openav(arguments)
            #expect(run.0 == 1 && run.2.contains("Error:"), "\(command): \(run.0) \(run.2)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(command)")
        }

        let mts = try RealWorldFixtures.truncated("plain.mts", percent: 3)
        let counts = try RealWorldFixtures.packetCounts(mts)
        #expect(counts.last == 0, "the fixture's sound should be cut off: \(counts)")
        let converted = Self.output("truncated.mp4")
        let run = try Self.openav(["convert", mts.path, converted])
        #expect(run.0 == 0, "\(run.2)")
        let streams = try #require(try Fixtures.probe(URL(fileURLWithPath: converted))["streams"] as? [[String: Any]])
        #expect(streams.map { $0["codec_type"] as? String } == ["video"])
        #expect(try Self.decodedFrames(converted) > 0)
    }
}

extension RealWorldCommandTests {
    /// Packed B-frames (Xvid) copied into MP4 are unpacked, as `ffmpeg -bsf:v mpeg4_unpack_bframes`
    /// copies them: the copy decodes to the very pictures of the source.
    @Test func packedBFramesCopyIntoMP4Unpacked() throws {
        let source = try RealWorldFixtures.packedXvidAVI()
        let copied = Self.output("xvid.mp4")
        let run = try Self.openav(["convert", source.path, copied, "--video", "copy"])
        #expect(run.0 == 0, "\(run.2)")
        #expect(try RealWorldFixtures.decodedFrameHashes(URL(fileURLWithPath: copied)) == RealWorldFixtures.decodedFrameHashes(source))
        let sizes = try RealWorldFixtures.ffmpegUnpackedPackets(source).map(\.size)
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", copied])
        #expect(String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map { Int($0) ?? 0 } == sizes)
    }
}

extension RealWorldCommandTests {
    /// Kind 3: an Opus file whose header claims more than it holds converts and exports what
    /// decodes, as ffmpeg converts it; it is not refused as cut short.
    @Test func aFileClaimingMoreThanItHoldsConverts() throws {
        let source = try RealWorldFixtures.opusClaimingMore()
        _ = try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", source.path, Self.output("ffmpeg.m4a")])
        for arguments in [["convert", source.path, Self.output("claiming.m4a")],
                          ["export", source.path, Self.output("claiming-export.m4a"), "--preset", "AppleM4A"]] {
            let run = try Self.openav(arguments)
            #expect(run.0 == 0, "\(arguments[0]): \(run.2)")
        }
    }
}
