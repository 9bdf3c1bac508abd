import Foundation

/// The kinds of file issue 40 found in people's collections, made by ffmpeg at test time: old
/// camera clips, downloads and music libraries that break readers written for MP4.
public enum RealWorldFixtures {
    static let video = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25"]
    static let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100"]

    /// Every kind, by a name for test output, for the sweeps that run every command over them.
    public static let kinds: [(name: String, make: @Sendable () throws -> URL)] = [
        ("divx-bframes.avi", divxAVI),
        ("mpeg1.mpg", mpeg1ProgramStream),
        ("xvid-packed.avi", packedXvidAVI),
        ("cover-art.mp3", coverArtMP3),
        ("cover-art.m4a", coverArtM4A),
        ("empty-video-streams.wmv", emptyVideoStreamsASF),
        ("only-empty-video.wmv", onlyEmptyVideoASF),
        ("mp4v.mp4", mp4vMP4),
        ("anamorphic.mpg", anamorphicMPEG2),
        ("opus.ogg", opusOgg),
        ("flac.flac", flacFile),
        ("opus-claiming-more.opus", opusClaimingMore),
        ("truncated-3.avi", { try truncated("plain.avi", percent: 3) }),
        ("truncated-3.mts", { try truncated("plain.mts", percent: 3) }),
    ] + codecsWithoutCoreMediaCodes.map { name in (name, { try codecWithoutCoreMediaCode(name) }) }
        + musicFilesFFmpegCannotWrite.map { name in (name, { try musicFile(name) }) }

    /// Music files no ffmpeg encoder writes, whose packets carry no durations: Monkey's Audio
    /// 3.96 and 3.99, WMA Pro, WMA Lossless.
    public static let musicFilesFFmpegCannotWrite = ["mac-396.ape", "mac-399.ape", "silence-2.wma", "silence-3.wma"]

    /// One of `musicFilesFFmpegCannotWrite`: the samples mutagen's source distribution ships for
    /// its own tests, which `scripts/setup` fetches from PyPI into the user's cache.
    public static func musicFile(_ name: String) throws -> URL {
        try fetchedMedia("mutagen-1.48.1/\(name)")
    }

    /// A file `scripts/setup` fetched (from PyPI) into the user's cache, by its path there
    /// under `openav-test-media`.
    public static func fetchedMedia(_ path: String) throws -> URL {
        let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        let url = cache.appendingPathComponent("openav-test-media/\(path)")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FixtureError(message: "\(url.path) is missing: run scripts/setup, which fetches it")
        }
        return url
    }

    /// The first `percent` of a 4 s clip (`plain.avi`: MPEG-4 Part 2 + MP3; `plain.mts`: H.264 +
    /// AAC in MPEG-TS, as AVCHD cameras write), as an interrupted copy or download leaves it.
    public static func truncated(_ name: String, percent: Int) throws -> URL {
        let codecs = name.hasSuffix(".avi") ? ["-c:v", "mpeg4", "-c:a", "libmp3lame"] : ["-c:v", "libx264", "-c:a", "aac", "-f", "mpegts"]
        let whole = try Fixtures.make(name, video + tone + ["-t", "4"] + codecs)
        let url = Fixtures.folder.appendingPathComponent("truncated-\(percent)-\(whole.lastPathComponent)")
        Fixtures.lock.lock()
        defer { Fixtures.lock.unlock() }
        if !FileManager.default.fileExists(atPath: url.path) {
            let data = try Data(contentsOf: whole)
            try data.prefix(data.count * percent / 100).write(to: url, options: .atomic)
        }
        return url
    }

    /// A 3 s Ogg Opus file whose last page claims 2 s more than its packets hold (its granule
    /// position raised, the page's checksum made again), as some taggers leave them: ffprobe
    /// states 5 s, every decoder gives 3 s.
    public static func opusClaimingMore() throws -> URL {
        let whole = try Fixtures.make("opus-3s.opus", ["-f", "lavfi", "-i", "sine=sample_rate=48000", "-t", "3", "-c:a", "libopus"])
        let url = Fixtures.folder.appendingPathComponent("claiming-more-\(whole.lastPathComponent)")
        Fixtures.lock.lock()
        defer { Fixtures.lock.unlock() }
        if FileManager.default.fileExists(atPath: url.path) { return url }
        var bytes = [UInt8](try Data(contentsOf: whole))
        guard let page = (0..<bytes.count - 27).last(where: { bytes[$0..<$0 + 4].elementsEqual(Array("OggS".utf8)) }) else {
            throw FixtureError(message: "no Ogg page in \(whole.lastPathComponent)")
        }
        var granule = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[page + 6 + $1]) << (8 * $1) }
        granule += 2 * 48000
        for index in 0..<8 { bytes[page + 6 + index] = UInt8(truncatingIfNeeded: granule >> (8 * index)) }
        let segments = Int(bytes[page + 26])
        let length = 27 + segments + bytes[page + 27..<page + 27 + segments].reduce(0) { $0 + Int($1) }
        for index in 22..<26 { bytes[page + index] = 0 }
        // Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, initial value 0.
        var crc: UInt32 = 0
        for byte in bytes[page..<page + length] {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        for index in 0..<4 { bytes[page + 22 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
        try Data(bytes).write(to: url, options: .atomic)
        return url
    }

    /// Files of codecs CoreMedia has no code for, by name: Vorbis, WavPack and Speex sound,
    /// Theora and FLV video.
    public static let codecsWithoutCoreMediaCodes = ["vorbis.ogg", "wavpack.wv", "speex.ogg", "theora.ogv", "flv1.flv"]

    /// One of `codecsWithoutCoreMediaCodes`, 1 s long.
    public static func codecWithoutCoreMediaCode(_ name: String) throws -> URL {
        let small = ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25"]
        let arguments: [String]
        switch name {
        case "vorbis.ogg": arguments = tone + ["-ac", "2", "-c:a", "libvorbis"]
        case "wavpack.wv": arguments = tone + ["-c:a", "wavpack"]
        case "speex.ogg": arguments = ["-f", "lavfi", "-i", "sine=sample_rate=16000", "-c:a", "libspeex"]
        case "theora.ogv": arguments = small + ["-c:v", "libtheora"]
        case "flv1.flv": arguments = small + ["-c:v", "flv1"]
        default: throw FixtureError(message: "no fixture \(name)")
        }
        return try Fixtures.make(name, arguments + ["-t", "1"])
    }

    /// A 1 s Opus file (Ogg).
    public static func opusOgg() throws -> URL {
        try Fixtures.make("opus.ogg", tone + ["-t", "1", "-c:a", "libopus"])
    }

    /// A 1 s FLAC file.
    public static func flacFile() throws -> URL {
        try Fixtures.make("flac.flac", tone + ["-t", "1", "-c:a", "flac"])
    }

    /// A 1 s 720x576 MPEG-2 program stream with pixels 64:45 wide (a 16:9 PAL DVD picture,
    /// shown 1024x576), with MPEG audio.
    public static func anamorphicMPEG2() throws -> URL {
        try Fixtures.make("anamorphic.mpg", ["-f", "lavfi", "-i", "testsrc2=size=720x576:rate=25"] + tone
            + ["-vf", "setsar=64/45", "-t", "1", "-c:v", "mpeg2video", "-c:a", "mp2", "-f", "vob"])
    }

    /// ffprobe's width, height, sample (pixel) aspect ratio and display aspect ratio of a file's
    /// first video stream, such as (720, 576, "64:45", "16:9").
    public static func videoGeometry(_ url: URL) throws -> (width: Int, height: Int, pixelAspect: String, displayAspect: String) {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                "stream=width,height,sample_aspect_ratio,display_aspect_ratio", "-of", "csv=p=0", url.path])
        let fields = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 4, let width = Int(fields[0]), let height = Int(fields[1]) else {
            throw FixtureError(message: "ffprobe gives no video geometry for \(url.lastPathComponent)")
        }
        return (width, height, fields[2], fields[3])
    }

    /// A 2 s MPEG-4 Part 2 (`mp4v`) MP4 with AAC: its decoder configuration is in the `esds` atom.
    public static func mp4vMP4() throws -> URL {
        try Fixtures.make("mp4v.mp4", video + tone + ["-t", "2", "-c:v", "mpeg4", "-c:a", "aac"])
    }

    /// The MD5 of every decoded frame of a file's first video stream (ffmpeg's `framemd5`,
    /// hashes only), to compare what two files show.
    public static func decodedFrameHashes(_ url: URL) throws -> [String] {
        let text = String(decoding: try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:v:0",
                                                                "-f", "framemd5", "-"]), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) }
    }

    /// A 2 s ASF (WMV2 + WMA) with three video streams of which only the last has frames (320x240,
    /// 50 frames), as some Windows recorders write them.
    public static func emptyVideoStreamsASF() throws -> URL {
        try Fixtures.make("empty-video-streams.wmv", [
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:d=0", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:d=0",
        ] + video + tone + ["-t", "2", "-map", "0", "-map", "1", "-map", "2", "-map", "3", "-c:v", "wmv2", "-c:a", "wmav2"])
    }

    /// A 2 s ASF whose one video stream is declared and never filled, beside its sound.
    public static func onlyEmptyVideoASF() throws -> URL {
        try Fixtures.make("only-empty-video.wmv", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:d=0"] + tone
            + ["-t", "2", "-map", "0", "-map", "1", "-c:v", "wmv2", "-c:a", "wmav2"])
    }

    /// How many packets ffprobe counts in each stream of a file, in stream order.
    public static func packetCounts(_ url: URL) throws -> [Int] {
        let data = try Fixtures.run("ffprobe", ["-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets",
                                                "-of", "csv=p=0", url.path])
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map { Int($0) ?? 0 }
    }

    /// A 64x64 PNG picture, cover art for the tagged music files.
    public static func coverPicture() throws -> URL {
        try Fixtures.make("cover.png", ["-f", "lavfi", "-i", "testsrc2=size=64x64", "-frames:v", "1"])
    }

    /// A 2 s MP3 with title and artist tags and `coverPicture()` as its ID3 attached picture
    /// (FFmpeg reads it as a video stream of one still image).
    public static func coverArtMP3() throws -> URL {
        try Fixtures.make("cover-art.mp3", tone + ["-i", try coverPicture().path, "-t", "2", "-map", "0", "-map", "1",
                                                  "-c:a", "libmp3lame", "-c:v", "copy", "-disposition:v", "attached_pic",
                                                  "-metadata", "title=Song", "-metadata", "artist=Band"])
    }

    /// A 2 s AAC M4A with a title tag and `coverPicture()` as its `covr` cover art.
    public static func coverArtM4A() throws -> URL {
        try Fixtures.make("cover-art.m4a", tone + ["-i", try coverPicture().path, "-t", "2", "-map", "0", "-map", "1",
                                                  "-c:a", "aac", "-c:v", "copy", "-disposition:v", "attached_pic",
                                                  "-metadata", "title=Song"])
    }

    /// The attached picture of a file as ffmpeg extracts it (its bytes as stored), or empty
    /// data when it has none.
    public static func ffmpegAttachedPicture(_ url: URL) throws -> Data {
        let streams = try Fixtures.probe(url)["streams"] as? [[String: Any]] ?? []
        guard let index = streams.firstIndex(where: { (($0["disposition"] as? [String: Any])?["attached_pic"] as? Int) == 1 }) else {
            return Data()
        }
        return try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:\(index)", "-c", "copy",
                                           "-f", "image2pipe", "-"])
    }

    /// A 2 s DivX-tagged MPEG-4 Part 2 AVI with B-frames and MP3 sound: AVI's index has only
    /// decode order, so FFmpeg's demuxer leaves the reference frames without a presentation time.
    public static func divxAVI() throws -> URL {
        try Fixtures.make("divx-bframes.avi", video + tone + ["-t", "2", "-c:v", "mpeg4", "-vtag", "DX50", "-bf", "2",
                                                             "-c:a", "libmp3lame"])
    }

    /// A 2 s Xvid AVI with B-frames packed into the packets of the frames before them (a
    /// not-coded placeholder in each B-frame's own slot), as DivX and Xvid wrote them.
    public static func packedXvidAVI() throws -> URL {
        try Fixtures.make("xvid-packed.avi", video + ["-t", "2", "-c:v", "libxvid", "-bf", "2", "-vtag", "XVID"])
    }

    /// The packets `ffmpeg -fflags +genpts -bsf:v mpeg4_unpack_bframes` copies from a file's first
    /// video stream: (decode time, presentation time, size), in the stream's time base.
    public static func ffmpegUnpackedPackets(_ url: URL) throws -> [(dts: Int64, pts: Int64, size: Int)] {
        let text = String(decoding: try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-fflags", "+genpts", "-i", url.path,
                                                                "-map", "0:v:0", "-c", "copy", "-bsf:v", "mpeg4_unpack_bframes",
                                                                "-f", "framecrc", "-"]), as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 5, let dts = Int64(fields[1]), let pts = Int64(fields[2]), let size = Int(fields[4]) else { return nil }
            return (dts, pts, size)
        }
    }

    /// A 2 s MPEG-1 program stream of small pictures with MPEG audio: several frames share a PES
    /// packet, and only the first is stamped, so a third of the video packets have no
    /// presentation time; its clock starts at 0.5 s, as muxers' do.
    public static func mpeg1ProgramStream() throws -> URL {
        try Fixtures.make("mpeg1.mpg", ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25"] + tone
            + ["-t", "2", "-c:v", "mpeg1video", "-bf", "2", "-c:a", "mp2", "-f", "mpeg"])
    }

    /// Every frame time ffmpeg derives for stream `stream` of `url` (an index or a specifier
    /// such as "v:0") when it decodes (its
    /// `framemd5` in the demuxer's time base, timestamps kept), as seconds `value * num / den`.
    public static func ffmpegFrameTimes(_ url: URL, stream: String) throws -> [(value: Int64, num: Int64, den: Int32)] {
        let text = String(decoding: try Fixtures.run("ffmpeg", ["-nostdin", "-v", "error", "-i", url.path, "-map", "0:\(stream)",
                                                                "-fps_mode", "passthrough", "-copyts", "-enc_time_base", "-1",
                                                                "-f", "framemd5", "-"]),
                          as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline)
        guard let header = lines.first(where: { $0.hasPrefix("#tb 0:") }),
              case let parts = header.dropFirst(6).split(separator: "/").map({ $0.trimmingCharacters(in: .whitespaces) }),
              parts.count == 2, let num = Int64(parts[0]), let den = Int32(parts[1]) else {
            throw FixtureError(message: "ffmpeg's framemd5 of \(url.lastPathComponent) states no time base")
        }
        return lines.filter { !$0.hasPrefix("#") }.compactMap {
            Int64($0.split(separator: ",")[1].trimmingCharacters(in: .whitespaces)).map { ($0, num, den) }
        }
    }
}
