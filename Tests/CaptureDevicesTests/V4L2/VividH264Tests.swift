import Foundation
import Testing
import OpenCoreMedia
import OpenCoreVideo
import TestSupport
@testable import CaptureDevices

extension VividGuestTests {
    /// An H.264 camera: the VM's v4l2loopback node, fed an ffmpeg-made H.264 clip (Annex B, as
    /// UVC H.264 cameras send it) by ffmpeg's v4l2 muxer (`H264LoopbackCamera`).
    @Suite(.timeLimit(.minutes(10))) struct H264Tests {
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

        /// Checks the pictures of decoded frames from `records[from...]`: each frame has one
        /// exactly when the decoder has every frame it refers to (none lost since the last key
        /// frame: a gap in the sequence numbers is frames lost), and each picture is one of the
        /// clip's, the frame after the previous picture when no frame was lost between them.
        static func checkPictures(_ records: ArraySlice<Record>, of loopback: H264LoopbackCamera,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
            var previous: (record: Record, frame: Int?)?
            var decodable = false
            for record in records {
                let lost = previous.map { record.sequenceNumber != $0.record.sequenceNumber + 1 } ?? false
                if lost { decodable = false }
                if record.isSync { decodable = true }
                let frame = record.picture.flatMap { loopback.clip.clipFrame(matching: $0[...]) }
                #expect((record.picture != nil) == decodable, "frame \(record.sequenceNumber): picture \(record.picture != nil)",
                        sourceLocation: sourceLocation)
                if record.picture != nil {
                    #expect(frame != nil, "frame \(record.sequenceNumber)'s picture is none of the clip's", sourceLocation: sourceLocation)
                }
                if record.isSync, let frame {
                    #expect(frame % loopback.clip.keyFrameInterval == 0, "key frame at clip frame \(frame)",
                            sourceLocation: sourceLocation)
                }
                if let previous, !lost, let before = previous.frame, let frame {
                    #expect(loopback.clip.follows(frame, before), "clip frame \(frame) after \(before)",
                            sourceLocation: sourceLocation)
                }
                previous = (record, frame)
            }
        }

        /// The loopback camera's H.264 format.
        static func h264Format(of camera: H264LoopbackCamera) throws -> (V4L2Camera, CaptureFormat) {
            let found = try Vivid.camera(at: camera.path)
            let format = try Vivid.format(found, "H264", DecodedClip.width, DecodedClip.height)
            return (found, format)
        }

        @Test func describesItsH264FormatAsAVC1AndDecodesFramesLikeFFmpeg() throws {
            let loopback = try H264LoopbackCamera.shared()
            let (camera, format) = try Self.h264Format(of: loopback)
            let video = try #require(format.video)
            #expect(video.codecType == kCMVideoCodecType_H264 && video.pixelFormat == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
            #expect(video.formatDescription.map(CMFormatDescriptionGetMediaSubType) == kCMVideoCodecType_H264)

            // The capture joins the stream somewhere: frames before its first key frame cannot be
            // described or decoded; every frame delivered comes compressed, with its picture, one
            // of the clip's, each the clip frame after the one before.
            let records = try Vivid.capture(camera, format, fps: 30, count: 20) { Record($0) }
            #expect(records.first?.isSync == true, "the first frame delivered is a key frame")
            #expect(records.allSatisfy { $0.isCompressed && $0.mediaSubType == kCMVideoCodecType_H264 })
            Self.checkPictures(records[...], of: loopback)
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
            let switchAt = 20
            #expect(records[..<switchAt].allSatisfy { $0.picture == nil }, "no picture while not decoding")
            #expect(records[switchAt...].contains { $0.isSync }, "a key frame after the switch")
            Self.checkPictures(records[switchAt...], of: loopback)
        }
    }
}
