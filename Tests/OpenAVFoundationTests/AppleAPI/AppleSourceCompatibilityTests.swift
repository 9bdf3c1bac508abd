import Foundation
import Testing
import TestSupport
import OpenAVFoundation

/// Code written for Apple platforms, compiled unchanged against `import OpenAVFoundation` (the
/// one import re-exports CoreMedia and CoreVideo, as Apple's does), giving Apple's results.
@Suite(.timeLimit(.minutes(10))) struct AppleSourceCompatibilityTests {
    @Test func timeCodeFromTheFoundationIssue() {
        let t = CMTimeAdd(CMTimeMake(value: 1, timescale: 3), CMTimeMake(value: 1, timescale: 2))
        #expect(CMTimeRange(start: .zero, duration: CMTime(seconds: 3, preferredTimescale: 600)).containsTime(t))
        #expect(t == CMTime(value: 5, timescale: 6))
    }

    @Test func pixelBufferCodeFromTheFoundationIssue() {
        var pixelBuffer: CVPixelBuffer?
        let status = CVPixelBufferCreate(nil, 1920, 1080, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &pixelBuffer)
        #expect(status == kCVReturnSuccess)
        guard let pixelBuffer else { return }
        #expect(CVPixelBufferGetPlaneCount(pixelBuffer) == 2)
        #expect(CVPixelBufferGetWidthOfPlane(pixelBuffer, 1) == 960)
        #expect(CVPixelBufferGetHeightOfPlane(pixelBuffer, 1) == 540)
    }

    @Test func typicalAttributeDictionaries() {
        // As written in countless capture and writer pipelines.
        let attributes: [String: Any] = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
            kCVPixelBufferWidthKey as String: 640,
            kCVPixelBufferHeightKey as String: 480,
        ]
        var pool: CVPixelBufferPool?
        #expect(CVPixelBufferPoolCreate(kCFAllocatorDefault, nil, attributes as CFDictionary, &pool) == kCVReturnSuccess)
        var buffer: CVPixelBuffer?
        #expect(CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, pool!, &buffer) == kCVReturnSuccess)
        #expect(CVPixelBufferGetWidth(buffer!) == 640 && CVPixelBufferGetPixelFormatType(buffer!) == kCVPixelFormatType_32BGRA)
    }

    @Test func sampleBufferTimingAsTheGuideReadsIt() throws {
        var pixelBuffer: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, 64, 48, kCVPixelFormatType_32BGRA, nil, &pixelBuffer)
        var formatDescription: CMVideoFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: kCFAllocatorDefault, imageBuffer: pixelBuffer!,
                                                     formatDescriptionOut: &formatDescription)
        var timing = CMSampleTimingInfo(duration: CMTimeMake(value: 1, timescale: 30),
                                        presentationTimeStamp: CMTimeMake(value: 7, timescale: 30),
                                        decodeTimeStamp: .invalid)
        var sampleBuffer: CMSampleBuffer?
        let status = CMSampleBufferCreateReadyWithImageBuffer(allocator: kCFAllocatorDefault, imageBuffer: pixelBuffer!,
                                                              formatDescription: formatDescription!, sampleTiming: &timing,
                                                              sampleBufferOut: &sampleBuffer)
        #expect(status == noErr)
        let buffer = try #require(sampleBuffer)
        // The guide: CMSampleBufferGetImageBuffer, and the presentation time stamp.
        #expect(CMSampleBufferGetImageBuffer(buffer) === pixelBuffer)
        #expect(CMSampleBufferGetPresentationTimeStamp(buffer) == CMTime(value: 7, timescale: 30))
        #expect(buffer.presentationTimeStamp.seconds == 7.0 / 30)
        let dimensions = CMVideoFormatDescriptionGetDimensions(CMSampleBufferGetFormatDescription(buffer)!)
        #expect(dimensions.width == 64 && dimensions.height == 48)
    }
}

@Suite(.timeLimit(.minutes(10))) struct AppleAssetCompatibilityTests {
    @Test func deprecatedAssetInitializerStillLoads() async throws {
        let asset = AVAsset(url: try Fixtures.h264AAC())
        #expect(asset.tracks(withMediaType: .video).count == 1)
        #expect(try await asset.load(.duration).seconds > 1.9)
    }
}
