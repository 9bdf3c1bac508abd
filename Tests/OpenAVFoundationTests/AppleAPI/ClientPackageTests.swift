import Foundation
import Testing
@testable import OpenAVFoundation
import TestSupport

/// What real packages written for Apple platforms do with the API, type-checked from outside
/// this package (as their own build sees it) and run here where behaviour is involved.
@Suite(.timeLimit(.minutes(10))) struct ClientPackageTests {
    /// Apple's CoreMedia has no `+=` or `-=` for CMTime, so packages define their own; ours
    /// must not meet theirs ("ambiguous use of operator").
    @Test func aPackagesOwnTimeOperatorsCompile() throws {
        let errors = try ClientCode.errors(in: """
            import OpenAVFoundation
            func += (lhs: inout CMTime, rhs: CMTime) { lhs = CMTimeAdd(lhs, rhs) }
            func -= (lhs: inout CMTime, rhs: CMTime) { lhs = CMTimeSubtract(lhs, rhs) }
            func * (lhs: CMTime, rhs: Double) -> CMTime { CMTimeMultiplyByFloat64(lhs, multiplier: rhs) }
            var time = CMTime(value: 1, timescale: 2)
            time += CMTime(value: 1, timescale: 4)
            time -= .zero
            let doubled = time * 2
            let sum = time + doubled - CMTime(seconds: 1, preferredTimescale: 600)
            print(sum.seconds, time < doubled, time == doubled)
            """)
        #expect(errors.isEmpty, "\(errors)")
    }

    /// A mutable composition's tracks are mutable composition tracks, so the usual spellings
    /// of editing them compile and edit the composition.
    @Test func aMutableCompositionsTracksAreEditedThroughItsTrackList() throws {
        let errors = try ClientCode.errors(in: """
            import OpenAVFoundation
            let composition = AVMutableComposition()
            _ = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)
            composition.tracks(withMediaType: .video).first?.preferredTransform = CGAffineTransform(rotationAngle: .pi / 2)
            let track = composition.tracks(withMediaType: .video)[0]
            track.naturalTimeScale = 600
            track.languageCode = "eng"
            track.isEnabled = false
            for audio in composition.tracks(withMediaCharacteristic: .audible) { audio.preferredVolume = 0.5 }
            let asset: AVAsset = composition
            let read: [AVAssetTrack] = asset.tracks(withMediaType: .video)
            print(read.count)
            """)
        #expect(errors.isEmpty, "\(errors)")

        let composition = AVMutableComposition()
        _ = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)
        let turn = CGAffineTransform(rotationAngle: .pi / 2)
        composition.tracks(withMediaType: .video).first?.preferredTransform = turn
        #expect(composition.tracks.first?.preferredTransform == turn)
        #expect((composition as AVAsset).tracks(withMediaType: .video).first?.preferredTransform == turn)
        #expect(composition.tracks(withMediaType: .audio).isEmpty)
    }

    /// Core Media's Swift initializers, as packages that build sample buffers by hand call them.
    @Test func coreMediasSwiftInitializersMakeBuffersAndThrowItsStatuses() throws {
        let errors = try ClientCode.errors(in: """
            import OpenAVFoundation
            func make(_ format: CMFormatDescription, _ pixels: CVPixelBuffer, _ video: CMVideoFormatDescription) throws -> [CMSampleBuffer] {
                let block = try CMBlockBuffer(length: 1920, allocator: kCFAllocatorDefault, flags: .assureMemoryNow)
                let empty = try CMBlockBuffer()
                _ = empty.dataLength
                let timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 48_000), presentationTimeStamp: .zero, decodeTimeStamp: .invalid)
                let audio = try CMSampleBuffer(dataBuffer: block, formatDescription: format, numSamples: 480, sampleTimings: [timing], sampleSizes: [4])
                let later = try CMSampleBuffer(dataBuffer: nil, formatDescription: format, numSamples: 480, sampleTimings: [timing], sampleSizes: [4]) { _ in noErr }
                let frame = try CMSampleBuffer(imageBuffer: pixels, formatDescription: video, sampleTiming: timing)
                return [audio, later, frame, try CMSampleBuffer(copying: frame), try CMSampleBuffer(copying: audio, withNewTiming: [timing])]
            }
            """)
        #expect(errors.isEmpty, "\(errors)")

        var format: CMFormatDescription?
        var description = AudioStreamBasicDescription(mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
                                                      mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked, mBytesPerPacket: 4,
                                                      mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        CMAudioFormatDescriptionCreate(allocator: nil, asbd: &description, layoutSize: 0, layout: nil, magicCookieSize: 0,
                                       magicCookie: nil, extensions: nil, formatDescriptionOut: &format)
        let block = try CMBlockBuffer(length: 1920)
        #expect(block.dataLength == 1920)
        #expect(try CMBlockBuffer(length: 100, range: 10..<30).dataLength == 20)
        #expect(throws: NSError(domain: NSOSStatusErrorDomain, code: Int(kCMBlockBufferBadLengthParameterErr))) {
            try CMBlockBuffer(length: 100, range: 90..<130)
        }
        var freed = 0
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        do {
            let wrapped = try CMBlockBuffer(buffer: memory) { pointer, length in
                freed += length
                pointer.deallocate()
            }
            #expect(wrapped.dataLength == 64 && freed == 0)
        }
        #expect(freed == 64, "the deallocator ran once the buffer went away")

        let timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 48_000), presentationTimeStamp: CMTime(value: 7, timescale: 1),
                                        decodeTimeStamp: .invalid)
        let audio = try CMSampleBuffer(dataBuffer: block, formatDescription: format, numSamples: 480, sampleTimings: [timing], sampleSizes: [4])
        #expect(audio.numSamples == 480 && audio.presentationTimeStamp == CMTime(value: 7, timescale: 1))
        #expect(audio.dataReadiness == .ready && audio.dataBuffer === block)
        #expect(throws: NSError(domain: NSOSStatusErrorDomain, code: Int(kCMSampleBufferError_InvalidEntryCount))) {
            try CMSampleBuffer(dataBuffer: block, formatDescription: format, numSamples: 3, sampleTimings: [timing, timing], sampleSizes: [])
        }
        let moved = try CMSampleBuffer(copying: audio, withNewTiming: [CMSampleTimingInfo(duration: timing.duration,
                                                                                          presentationTimeStamp: .zero, decodeTimeStamp: .invalid)])
        #expect(moved.presentationTimeStamp == .zero && moved.dataBuffer === block)
        var readied = false
        let later = try CMSampleBuffer(dataBuffer: nil, formatDescription: format, numSamples: 480, sampleTimings: [timing], sampleSizes: [4]) { buffer in
            readied = true
            return CMSampleBufferSetDataBuffer(buffer, newValue: block)
        }
        #expect(later.dataReadiness == .notReady)
        try later.makeDataReady()
        #expect(readied && later.dataReadiness == .ready && later.dataBuffer === block)
    }

    /// Apple's typed strings convert to and from `NSString` with `as`, as code that builds
    /// Objective-C-style dictionaries and arrays writes them.
    @Test func typedStringsBridgeToNSString() throws {
        let errors = try ClientCode.errors(in: """
            import OpenAVFoundation
            let type = AVFileType.mov as NSString
            let keys: [NSString] = [AVMetadataKey.commonKeyTitle as NSString, AVMetadataKeySpace.common as NSString]
            let settings: NSDictionary = [AVVideoCodecKey: AVVideoCodecType.h264 as NSString]
            let back = type as? AVFileType
            let preset = AVCaptureSession.Preset.hd1280x720 as NSString
            print(type, keys, settings, back as Any, preset, AVMediaType.video as NSString, AVLayerVideoGravity.resizeAspect as NSString)
            """)
        #expect(errors.isEmpty, "\(errors)")

        #expect((AVFileType.mp4 as NSString) == ("public.mpeg-4" as NSString))
        #expect((("com.apple.quicktime-movie" as NSString) as? AVFileType) == .mov)
        let anything: Any = AVVideoCodecType.hevc
        #expect((anything as? NSString) == ("hvc1" as NSString))
        #expect((AVCaptureSession.Preset.vga640x480 as NSString) as String == AVCaptureSession.Preset.vga640x480.rawValue)
    }
}
