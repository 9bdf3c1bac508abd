import Foundation
import Testing
import OpenCoreMedia
import OpenCoreVideo
import TestSupport
@testable import CaptureDevices

extension VividGuestTests {
    /// An H.264 camera: the VM's v4l2loopback node, fed an ffmpeg-made H.264 clip (Annex B, as
    /// UVC H.264 cameras send it) by ffmpeg's v4l2 muxer (`H264LoopbackCamera`).
    @Suite struct H264Tests {
        /// What the tests keep of a frame: its compressed sample's flags and format, and its
        /// picture packed as NV12 when it has one.
        struct Record: Sendable {
            var sequenceNumber: UInt64
            var isCompressed: Bool
            var isSync: Bool
            var mediaSubType: FourCharCode?
            var picture: [UInt8]?

            init(_ sample: CaptureSample) {
                sequenceNumber = sample.sequenceNumber
                isCompressed = sample.compressedVideo != nil
                isSync = sample.compressedVideo?.isSyncSample(at: 0) ?? false
                mediaSubType = sample.compressedVideo?.formatDescription.map(CMFormatDescriptionGetMediaSubType)
                picture = sample.pixelBuffer.map { VividFrame.packedPlanes($0).flatMap { $0 } }
            }
        }

        /// The loopback camera's H.264 format.
        static func h264Format(of camera: H264LoopbackCamera) throws -> (V4L2Camera, CaptureFormat) {
            let found = try Vivid.camera(at: camera.path)
            let format = try Vivid.format(found, "H264", H264LoopbackCamera.width, H264LoopbackCamera.height)
            return (found, format)
        }

        @Test func describesItsH264FormatAsAVC1AndDecodesFramesLikeFFmpeg() throws {
            let loopback = try H264LoopbackCamera.shared()
            let (camera, format) = try Self.h264Format(of: loopback)
            let video = try #require(format.video)
            #expect(video.codecType == kCMVideoCodecType_H264 && video.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
            #expect(video.formatDescription.map(CMFormatDescriptionGetMediaSubType) == kCMVideoCodecType_H264)

            // The capture joins the stream somewhere: frames before its first key frame cannot be
            // described or decoded; every frame delivered comes compressed with its picture, one of
            // the clip's, each the clip frame after the one before.
            let records = try Vivid.capture(camera, format, fps: 30, count: 20) { Record($0) }
            #expect(records.first?.isSync == true, "the first frame delivered is a key frame")
            #expect(records.allSatisfy { $0.isCompressed && $0.mediaSubType == kCMVideoCodecType_H264 })
            let frames = records.map { $0.picture.flatMap { loopback.clipFrame(matching: $0[...]) } }
            #expect(H264LoopbackCamera.areConsecutive(frames), "clip frames \(frames)")
            let keyFrames = zip(records, frames).filter { $0.0.isSync }.map { $0.1 ?? -1 }
            #expect(keyFrames.allSatisfy { $0 % H264LoopbackCamera.keyFrameInterval == 0 }, "key frames \(keyFrames)")
        }

        @Test func deliversFramesUndecodedUntilAskedThenDecodesFromTheNextKeyFrame() throws {
            let loopback = try H264LoopbackCamera.shared()
            let (camera, format) = try Self.h264Format(of: loopback)
            camera.decodesCompressedFrames = false
            defer { camera.decodesCompressedFrames = true }
            // After 20 frames the camera is asked to decode (read before the next frame).
            final class Count: @unchecked Sendable { var delivered = 0 }  // used on the device thread only
            let count = Count()
            let records = try Vivid.capture(camera, format, fps: 30, count: 60) { sample in
                count.delivered += 1
                if count.delivered == 20 { camera.decodesCompressedFrames = true }
                return Record(sample)
            }
            #expect(records.allSatisfy { $0.isCompressed })
            #expect(records.map(\.sequenceNumber) == Array(records[0].sequenceNumber..<records[0].sequenceNumber + 60),
                    "no frame dropped")
            let switchAt = 20
            #expect(records[..<switchAt].allSatisfy { $0.picture == nil }, "no picture while not decoding")
            let resumed = try #require(records[switchAt...].firstIndex { $0.isSync }, "a key frame after the switch")
            #expect(records[switchAt..<resumed].allSatisfy { $0.picture == nil }, "no picture before the key frame")
            let frames = records[resumed...].map { $0.picture.flatMap { loopback.clipFrame(matching: $0[...]) } }
            #expect(H264LoopbackCamera.areConsecutive(frames), "clip frames \(frames)")
            #expect((frames.first ?? nil).map { $0 % H264LoopbackCamera.keyFrameInterval == 0 } == true)
        }
    }
}
