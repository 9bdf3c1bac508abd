import Foundation
import Testing
import TestSupport
@testable import OpenAVFoundation

@Suite("AVMediaType, AVFileType, AVMediaCharacteristic", .timeLimit(.minutes(10)))
struct AVMediaTypeTests {
    @Test("media types carry Apple's four-character codes")
    func mediaTypeRawValues() {
        #expect(AVMediaType.video.rawValue == "vide")
        #expect(AVMediaType.audio.rawValue == "soun")
        #expect(AVMediaType.text.rawValue == "text")
        #expect(AVMediaType.closedCaption.rawValue == "clcp")
        #expect(AVMediaType.subtitle.rawValue == "sbtl")
        #expect(AVMediaType.timecode.rawValue == "tmcd")
        #expect(AVMediaType.metadata.rawValue == "meta")
        #expect(AVMediaType.muxed.rawValue == "muxx")
        #expect(AVMediaType.depthData.rawValue == "dpth")
        #expect(AVMediaType.haptic.rawValue == "hapt")
        #expect(AVMediaType.auxiliaryPicture.rawValue == "auxv")
        #expect(AVMediaType("vide") == .video)
        #expect(AVMediaType(rawValue: "soun") == .audio)
        #expect(Set([AVMediaType.video, AVMediaType("vide"), .audio]).count == 2)
    }

    @Test("file types carry Apple's UTIs")
    func fileTypeRawValues() {
        let expected: [(AVFileType, String)] = [
            (.mov, "com.apple.quicktime-movie"), (.mp4, "public.mpeg-4"), (.m4v, "com.apple.m4v-video"),
            (.m4a, "com.apple.m4a-audio"), (.mobile3GPP, "public.3gpp"), (.mobile3GPP2, "public.3gpp2"),
            (.caf, "com.apple.coreaudio-format"), (.wav, "com.microsoft.waveform-audio"),
            (.aiff, "public.aiff-audio"), (.aifc, "public.aifc-audio"), (.amr, "org.3gpp.adaptive-multi-rate-audio"),
            (.mp3, "public.mp3"), (.au, "public.au-audio"), (.ac3, "public.ac3-audio"),
            (.eac3, "public.enhanced-ac3-audio"), (.jpg, "public.jpeg"), (.dng, "com.adobe.raw-image"),
            (.heic, "public.heic"), (.avci, "public.avci"), (.heif, "public.heif"), (.tif, "public.tiff"),
            (.appleiTT, "com.apple.itunes-timed-text"), (.SCC, "com.scenarist.closed-caption"),
        ]
        for (type, raw) in expected { #expect(type.rawValue == raw) }
        #expect(Set(AVFileType.allKnown.map(\.rawValue)).count == AVFileType.allKnown.count)
    }

    @Test("path extensions map to file types", arguments: [
        ("mov", AVFileType.mov), ("MOV", .mov), (".qt", .mov), ("mp4", .mp4), ("m4v", .m4v), ("m4a", .m4a),
        ("wav", .wav), ("wave", .wav), ("mp3", .mp3), ("caf", .caf), ("aiff", .aiff), ("aif", .aiff),
        ("aifc", .aifc), ("3gp", .mobile3GPP), ("3g2", .mobile3GPP2), ("amr", .amr), ("au", .au),
        ("ac3", .ac3), ("eac3", .eac3), ("jpg", .jpg), ("jpeg", .jpg), ("tiff", .tif), ("heic", .heic),
        ("itt", .appleiTT), ("scc", .SCC),
    ])
    func pathExtensions(ext: String, type: AVFileType) {
        #expect(AVFileType.fileType(forPathExtension: ext) == type)
    }

    @Test("unknown path extensions have no file type")
    func unknownPathExtension() {
        #expect(AVFileType.fileType(forPathExtension: "mkv") == nil)
        #expect(AVFileType.fileType(forPathExtension: "") == nil)
    }

    @Test("file types name FFmpeg muxers that this FFmpeg has")
    func muxerNames() throws {
        #expect(AVFileType.mov.ffmpegMuxerName == "mov")
        #expect(AVFileType.mp4.ffmpegMuxerName == "mp4")
        #expect(AVFileType.m4a.ffmpegMuxerName == "ipod")
        #expect(AVFileType.m4v.ffmpegMuxerName == "ipod")
        #expect(AVFileType.wav.ffmpegMuxerName == "wav")
        #expect(AVFileType.mp3.ffmpegMuxerName == "mp3")
        #expect(AVFileType.heic.ffmpegMuxerName == nil)
        // The oracle: every muxer name we hand out is one `ffmpeg -muxers` lists.
        let listing = String(decoding: try Fixtures.run("ffmpeg", ["-hide_banner", "-muxers"]), as: UTF8.self)
        let muxers = Set(listing.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[0].contains("E") else { return nil }
            return String(fields[1])
        })
        for type in AVFileType.allKnown {
            if let name = type.ffmpegMuxerName { #expect(muxers.contains(name), "\(name) for \(type.rawValue)") }
        }
    }

    @Test("media characteristics carry Apple's strings")
    func characteristicRawValues() {
        #expect(AVMediaCharacteristic.visual.rawValue == "AVMediaCharacteristicVisual")
        #expect(AVMediaCharacteristic.audible.rawValue == "AVMediaCharacteristicAudible")
        #expect(AVMediaCharacteristic.legible.rawValue == "AVMediaCharacteristicLegible")
        #expect(AVMediaCharacteristic.frameBased.rawValue == "AVMediaCharacteristicFrameBased")
        #expect(AVMediaCharacteristic.containsHDRVideo.rawValue == "public.contains-hdr-video")
        #expect(AVMediaCharacteristic.containsAlphaChannel.rawValue == "public.contains-alpha-channel")
        #expect(AVMediaCharacteristic.usesWideGamutColorSpace.rawValue == "public.uses-wide-gamut-color-space")
        #expect(AVMediaCharacteristic.isMainProgramContent.rawValue == "public.main-program-content")
        #expect(AVMediaCharacteristic.isAuxiliaryContent.rawValue == "public.auxiliary-content")
        #expect(AVMediaCharacteristic.isOriginalContent.rawValue == "public.original-content")
        #expect(AVMediaCharacteristic.containsOnlyForcedSubtitles.rawValue == "public.subtitles.forced-only")
        #expect(AVMediaCharacteristic.describesVideoForAccessibility.rawValue == "public.accessibility.describes-video")
        #expect(AVMediaCharacteristic.voiceOverTranslation.rawValue == "public.translation.voice-over")
    }
}
