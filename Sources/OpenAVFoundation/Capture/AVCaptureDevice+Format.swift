import Foundation
import CaptureDevices
import OpenCoreMedia

extension AVCaptureDevice {
    /// One format a capture device can deliver: media type, format description and frame rates.
    ///
    /// Each device makes its formats once, so the same format is the same object.
    public final class Format: NSObject, @unchecked Sendable {
        /// The device layer's format.
        let captureFormat: CaptureFormat
        private let description_: CMFormatDescription

        init(_ captureFormat: CaptureFormat) {
            self.captureFormat = captureFormat
            switch captureFormat {
            case .video(let video):
                guard let description = video.formatDescription else {
                    preconditionFailure("cannot describe the capture format \(video)")
                }
                description_ = description
                videoSupportedFrameRateRanges = video.frameRateRanges.map(AVFrameRateRange.init)
            case .audio(let audio):
                description_ = audio.formatDescription
                videoSupportedFrameRateRanges = []
            }
        }

        /// The media type of the format.
        public var mediaType: AVMediaType { captureFormat.mediaKind == .video ? .video : .audio }

        /// The format of the buffers the device delivers in this format.
        public var formatDescription: CMFormatDescription { description_ }

        /// The frame rates the format supports (empty for audio formats).
        public let videoSupportedFrameRateRanges: [AVFrameRateRange]

        /// The shortest exposure duration of a custom exposure (`.zero` without exposure control).
        public var minExposureDuration: CMTime { video?.exposureDurations?.lowerBound ?? .zero }
        /// The longest exposure duration of a custom exposure (`.zero` without exposure control).
        public var maxExposureDuration: CMTime { video?.exposureDurations?.upperBound ?? .zero }
        /// The lowest ISO of a custom exposure (0 without exposure control).
        public var minISO: Float { video?.isos?.lowerBound ?? 0 }
        /// The highest ISO of a custom exposure (0 without exposure control).
        public var maxISO: Float { video?.isos?.upperBound ?? 0 }
        /// The largest `videoZoomFactor` (1 for formats without zoom and for audio).
        public var videoMaxZoomFactor: CGFloat { CGFloat(video?.maxZoomFactor ?? 1) }
        /// The horizontal field of view, in degrees (0 when unknown, and for audio).
        public var videoFieldOfView: Float { video?.fieldOfView ?? 0 }
        /// Whether the format can capture high dynamic range video: false.
        public var isVideoHDRSupported: Bool { false }
        /// Whether the format bins sensor pixels (trading resolution for sensitivity): false,
        /// the cameras here do not say so.
        public var isVideoBinned: Bool { false }
        /// Whether the format can be used in a multi-camera session: false, there is none here.
        public var isMultiCamSupported: Bool { false }
        /// The depth data formats the format can deliver alongside video: none, no camera here
        /// measures depth.
        public var supportedDepthDataFormats: [AVCaptureDevice.Format] { [] }
        /// The horizontal field of view after geometric distortion correction, in degrees: the
        /// same as `videoFieldOfView`, the cameras here do not correct distortion.
        public var geometricDistortionCorrectedVideoFieldOfView: Float { videoFieldOfView }

        /// Whether the format supports a video stabilization mode: only `.off`, for the cameras
        /// here.
        public func isVideoStabilizationModeSupported(_ videoStabilizationMode: AVCaptureVideoStabilizationMode) -> Bool {
            videoStabilizationMode == .off
        }

        /// The largest photo sizes a photo output can take in this format, smallest first: the
        /// format's own frame size for a camera's format (empty for audio).
        ///
        /// Differs from Apple: the cameras here take photos from their video frames, so no
        /// format offers photos larger than its frames.
        public var supportedMaxPhotoDimensions: [CMVideoDimensions] {
            guard let video else { return [] }
            return [CMVideoDimensions(width: Int32(video.width), height: Int32(video.height))]
        }

        /// The size of high-resolution still images in this format: the largest of
        /// `supportedMaxPhotoDimensions` (zero for audio). Deprecated by Apple in favour of
        /// `supportedMaxPhotoDimensions`.
        @available(*, deprecated, message: "Use supportedMaxPhotoDimensions")
        public var highResolutionStillImageDimensions: CMVideoDimensions {
            supportedMaxPhotoDimensions.last ?? CMVideoDimensions()
        }

        /// The video format, for a camera's format.
        var video: CaptureVideoFormat? { captureFormat.video }

        /// Whether `object` is the same format (equal device formats are equal).
        public override func isEqual(_ object: Any?) -> Bool {
            (object as? Format)?.captureFormat == captureFormat
        }

        /// A hash consistent with `isEqual(_:)`.
        public override var hash: Int { captureFormat.hashValue }

        /// A description for debugging.
        public override var description: String { "<AVCaptureDeviceFormat: \(captureFormat)>" }
    }
}
