import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

/// Every preset on every kind of source, checked with ffprobe and ffmpeg's decode: codecs,
/// sizes, durations, frame counts and times, and pictures against the source's.
@Suite(HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct ExportPresetMatrixTests {
    /// The kinds of source the matrix exports (2 s, 320x240, 25 fps, made by ffmpeg).
    enum Source: String, CaseIterable, CustomTestStringConvertible {
        case h264BFrames, hevc, proRes, vp9Opus, mpegTS, rotated, audioOnly

        var testDescription: String { rawValue }

        func make() throws -> URL {
            let video = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                         "-t", "2", "-ac", "2", "-pix_fmt", "yuv420p"]
            switch self {
            case .h264BFrames: return try Fixtures.h264AAC()
            case .hevc: return try Fixtures.make("export-hevc.mp4", video + ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a", "aac"])
            case .proRes: return try Fixtures.make("export-prores.mov", video.dropLast(2) + ["-c:v", "prores_ks", "-c:a", "pcm_s16le"])
            case .vp9Opus: return try Fixtures.make("export-vp9.webm", video + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus"])
            case .mpegTS: return try Fixtures.make("export-ts.ts", video + ["-c:v", "libx264", "-bf", "2", "-c:a", "aac"])
            case .rotated: return try Fixtures.make("export-rotated.mp4", video + ["-c:v", "libx264", "-c:a", "aac", "-metadata:s:v:0", "rotate=90"])
            case .audioOnly: return try Fixtures.make("export-audio.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-t", "2", "-c:a", "aac"])
            }
        }
    }

    /// ffprobe's codec name for what a preset writes from a stream of codec `source`.
    static func expectedCodecs(_ preset: String, video: String?, audio: String?) -> (video: String?, audio: String?) {
        switch preset {
        case AVAssetExportPresetPassthrough: return (video, audio)
        case AVAssetExportPresetAppleM4A: return (nil, audio.map { _ in "aac" })
        case AVAssetExportPresetAppleProRes422LPCM, AVAssetExportPresetAppleProRes4444LPCM:
            return (video.map { _ in "prores" }, audio.map { _ in "pcm_s16le" })
        case AVAssetExportPresetHEVC1920x1080, AVAssetExportPresetHEVC3840x2160, AVAssetExportPresetHEVC7680x4320,
             AVAssetExportPresetHEVCHighestQuality:
            return (video.map { _ in "hevc" }, audio.map { _ in "aac" })
        default: return (video.map { _ in "h264" }, audio.map { _ in "aac" })
        }
    }

    @Test(arguments: Source.allCases) func everyCompatiblePreset(_ kind: Source) async throws {
        let source = try kind.make()
        let asset = AVURLAsset(url: source)
        _ = try await asset.load(.tracks)
        let presets = AVAssetExportSession.exportPresets(compatibleWith: asset)
        if kind == .audioOnly {
            #expect(Set(presets) == [AVAssetExportPresetAppleM4A, AVAssetExportPresetPassthrough])
        } else if kind == .vp9Opus {
            // VP9 is stored as it is in no file type the writer makes yet (see Muxer.canStore).
            #expect(Set(presets) == Set(AVAssetExportSession.allExportPresets()).subtracting([AVAssetExportPresetPassthrough]))
        } else {
            #expect(Set(presets) == Set(AVAssetExportSession.allExportPresets()))
        }
        let sourceStreams = try ExportOracle.streams(source)
        let sourceVideo = sourceStreams.first { $0["codec_type"] as? String == "video" }
        let sourceAudio = sourceStreams.first { $0["codec_type"] as? String == "audio" }
        // Exports count time from the file's own start (an MPEG-TS clock does not start at 0).
        let origin = kind == .mpegTS ? try ExportOracle.startTime(source) : 0
        let sourceTimes = try ExportOracle.frameTimes(source).map { $0 - origin }
        let sourceFrames = sourceVideo == nil ? [] : try ExportOracle.frames(source, width: 320, height: 240)
        let sourceDuration = try ExportOracle.duration(source)

        for preset in presets {
            let session = try #require(AVAssetExportSession(asset: asset, presetName: preset))
            let fileType = try #require(session.supportedFileTypes.first, "\(preset) writes no file type for \(kind)")
            let (done, url) = try await ExportOracle.export(source, preset: preset, fileType: fileType, name: "\(preset).out")
            try #require(done.status == .completed, "\(kind) \(preset): \(String(describing: done.error))")
            #expect(done.progress == 1)

            let streams = try ExportOracle.streams(url)
            let video = streams.first { $0["codec_type"] as? String == "video" }
            let audio = streams.first { $0["codec_type"] as? String == "audio" }
            let expected = Self.expectedCodecs(preset, video: sourceVideo?["codec_name"] as? String, audio: sourceAudio?["codec_name"] as? String)
            #expect(video?["codec_name"] as? String == expected.video, "\(kind) \(preset)")
            #expect(audio?["codec_name"] as? String == expected.audio, "\(kind) \(preset)")
            #expect(abs(try ExportOracle.duration(url) - sourceDuration) < 0.05, "\(kind) \(preset) duration")
            guard let video else { continue }

            // The low preset fits 224x168; every other box holds 320x240, which is never upscaled.
            let (width, height) = preset == AVAssetExportPresetLowQuality ? (224, 168) : (320, 240)
            #expect(video["width"] as? Int == width && video["height"] as? Int == height, "\(kind) \(preset) size")
            #expect(video["tags"].flatMap { ($0 as? [String: Any])?["rotate"] as? String }
                        == sourceVideo?["tags"].flatMap { ($0 as? [String: Any])?["rotate"] as? String }, "\(kind) \(preset) rotation")

            // Every frame, at the source's time, looking like the source's frame.
            let times = try ExportOracle.frameTimes(url)
            #expect(times.count == sourceTimes.count, "\(kind) \(preset) frame count")
            #expect(zip(times, sourceTimes).allSatisfy { abs($0 - $1) < 0.001 }, "\(kind) \(preset) frame times \(times.prefix(4)) vs \(sourceTimes.prefix(4))")
            let frames = try ExportOracle.frames(url, width: width, height: height)
            let reference = (width, height) == (320, 240) ? sourceFrames : try ExportOracle.frames(source, width: width, height: height)
            let psnr = ExportOracle.worstPSNR(frames, reference)
            #expect(frames.count == reference.count && psnr >= 35, "\(kind) \(preset): worst PSNR \(psnr) dB")
        }
    }
}
