import ArgumentParser
import Foundation
import OpenAVFoundation

/// The camera options of the capture commands: which camera, and at which size and rate
/// (`--video DEVICE [--preset P | --format WxH@FPS]`).
struct VideoCaptureOptions: ParsableArguments {
    @Option(help: "The camera: its unique ID or name, as `openav devices` lists them, a V4L2 device node such as /dev/video0, or a movie or image file, which a File Camera plays (default: the first camera; the Test Pattern Camera where there is no hardware).")
    var video: String?

    @Option(help: "A session preset: \(Self.presets.map(\.name).joined(separator: ", ")).")
    var preset: String?

    @Option(help: "A camera format, WIDTHxHEIGHT or WIDTHxHEIGHT@FPS, for example 1280x720@60.")
    var format: String?

    /// The presets by their command-line names.
    static let presets: [(name: String, preset: AVCaptureSession.Preset)] = [
        ("photo", .photo), ("high", .high), ("medium", .medium), ("low", .low), ("cif352x288", .cif352x288),
        ("vga640x480", .vga640x480), ("hd1280x720", .hd1280x720), ("hd1920x1080", .hd1920x1080),
        ("hd4K3840x2160", .hd4K3840x2160), ("iFrame960x540", .iFrame960x540), ("iFrame1280x720", .iFrame1280x720),
    ]

    /// A parsed `--format`: size and, if given, frame rate.
    struct FormatRequest {
        let width: Int32
        let height: Int32
        let frameRate: Double?

        init?(_ text: String) {
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            let size = parts[0].lowercased().split(separator: "x")
            guard parts.count <= 2, size.count == 2, let width = Int32(size[0]), let height = Int32(size[1]),
                  width > 0, height > 0 else { return nil }
            self.width = width
            self.height = height
            if parts.count == 2 {
                guard let rate = Double(parts[1]), rate > 0, rate <= 1000 else { return nil }
                frameRate = rate
            } else {
                frameRate = nil
            }
        }

        /// The frame duration of the rate: exact for whole rates, in 1/1000 frames otherwise.
        var frameDuration: CMTime? {
            guard let frameRate else { return nil }
            if frameRate == frameRate.rounded() { return CMTime(value: 1, timescale: Int32(frameRate)) }
            return CMTime(value: 1000, timescale: Int32((frameRate * 1000).rounded()))
        }
    }

    func validate() throws {
        guard preset == nil || format == nil else { throw ValidationError("give --preset or --format, not both") }
        if let preset, !Self.presets.contains(where: { $0.name.lowercased() == preset.lowercased() }) {
            throw ValidationError("unknown --preset \(preset); one of \(Self.presets.map(\.name).joined(separator: ", "))")
        }
        if let format, FormatRequest(format) == nil {
            throw ValidationError("--format must be WIDTHxHEIGHT or WIDTHxHEIGHT@FPS, for example 1280x720@30")
        }
    }

    /// The camera chosen by `--video`, or the default camera.
    func camera() throws -> AVCaptureDevice {
        guard let video else {
            guard let camera = AVCaptureDevice.default(for: .video) else { throw CommandFailure("no camera found") }
            return camera
        }
        if let file = DeviceLookup.mediaFile(video) {
            do {
                return try AVCaptureDevice.fileCamera(playing: file)
            } catch let error as AVError {
                throw CommandFailure("cannot play \(video) as a camera: \(error.failureText)")
            }
        }
        return try DeviceLookup.device(video, mediaType: .video, deviceTypes: [.builtInWideAngleCamera, .external],
                                       kind: "camera")
    }

    /// Adds the chosen camera to `session`, in the preset or format asked for (of one size,
    /// an H.264 format first when `preferringH264`, else '420v' first); returns it.
    func addCamera(to session: AVCaptureSession, preferringH264: Bool = false) throws -> AVCaptureDevice {
        let camera = try camera()
        let input: AVCaptureDeviceInput
        do {
            input = try AVCaptureDeviceInput(device: camera)
        } catch let error as AVError {
            throw CommandFailure("cannot use \(camera.localizedName): \(error.failureText)")
        }
        if let name = preset, let preset = Self.presets.first(where: { $0.name.lowercased() == name.lowercased() })?.preset {
            guard session.canSetSessionPreset(preset) else {
                throw CommandFailure("\(camera.localizedName) has no format for --preset \(name)")
            }
            session.sessionPreset = preset
        }
        guard session.canAddInput(input) else { throw CommandFailure("cannot use \(camera.localizedName)") }
        session.addInput(input)
        if let text = format, let request = FormatRequest(text) {
            try apply(request, to: camera, preferringH264: preferringH264)
        }
        return camera
    }

    /// Sets the camera's active format (preferring 'avc1' or '420v' among formats of the size)
    /// and rate.
    private func apply(_ request: FormatRequest, to camera: AVCaptureDevice, preferringH264: Bool) throws {
        let sized = camera.formats.filter {
            let dimensions = CMVideoFormatDescriptionGetDimensions($0.formatDescription)
            return $0.mediaType == .video && dimensions.width == request.width && dimensions.height == request.height
        }
        let preferredType = preferringH264 ? kCMVideoCodecType_H264 : kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        let preferred = sized.first { CMFormatDescriptionGetMediaSubType($0.formatDescription) == preferredType }
        guard let format = preferred ?? sized.first else {
            throw CommandFailure("\(camera.localizedName) has no \(request.width)x\(request.height) format; `openav devices` lists them")
        }
        let duration = request.frameDuration
        if let duration, !format.videoSupportedFrameRateRanges.contains(where: {
            duration >= $0.minFrameDuration && duration <= $0.maxFrameDuration
        }) {
            let ranges = format.videoSupportedFrameRateRanges.map { DevicesReport.rateText($0) }.joined(separator: ", ")
            throw CommandFailure("\(camera.localizedName) cannot deliver \(request.width)x\(request.height) at \(request.frameRate!) fps (\(ranges))")
        }
        do {
            try camera.lockForConfiguration()
        } catch let error as AVError {
            throw CommandFailure("cannot configure \(camera.localizedName): \(error.failureText)")
        }
        camera.activeFormat = format
        if let duration { camera.activeVideoMinFrameDuration = duration }
        camera.unlockForConfiguration()
    }
}
