import ArgumentParser
import Foundation
import OpenAVFoundation

/// The options that choose capture devices and the camera's format, shared by the capture
/// commands, and the session they configure.
struct CaptureOptions: ParsableArguments {
    @Option(help: "Camera: its unique ID or name (default: the default camera; 'none' for no video).")
    var video: String?

    @Option(help: "Microphone: its unique ID or name (default: the default microphone; 'none' for no audio).")
    var audio: String?

    @Option(help: "Session preset: high, medium, low, photo, 352x288, 640x480, 1280x720, 1920x1080, 3840x2160, iFrame960x540 or iFrame1280x720.")
    var preset: String?

    @Option(help: "Camera format as WIDTHxHEIGHT@FPS, such as 1280x720@60 (instead of a preset).")
    var format: String?

    func validate() throws {
        if preset != nil && format != nil { throw ValidationError("give --preset or --format, not both") }
        if let preset, Self.preset(named: preset) == nil { throw ValidationError("unknown --preset \(preset)") }
        if let format, Self.parse(format: format) == nil {
            throw ValidationError("--format must look like 1280x720@30, not \(format)")
        }
    }

    /// The preset called `name` (its Apple name without the "AVCaptureSessionPreset" prefix,
    /// any case).
    static func preset(named name: String) -> AVCaptureSession.Preset? {
        let presets: [AVCaptureSession.Preset] = [
            .high, .medium, .low, .photo, .cif352x288, .vga640x480, .hd1280x720, .hd1920x1080, .hd4K3840x2160,
            .iFrame960x540, .iFrame1280x720,
        ]
        return presets.first { $0.rawValue.dropFirst("AVCaptureSessionPreset".count).lowercased() == name.lowercased() }
    }

    /// Width, height and frame rate of "WxH@FPS".
    static func parse(format: String) -> (width: Int32, height: Int32, rate: Int32)? {
        let parts = format.lowercased().split(whereSeparator: { $0 == "x" || $0 == "@" }).compactMap { Int32($0) }
        guard parts.count == 3, parts.allSatisfy({ $0 > 0 }) else { return nil }
        return (parts[0], parts[1], parts[2])
    }

    /// The device asked for by `choice` (nil: the default one; "none": no device).
    static func device(_ choice: String?, for mediaType: AVMediaType) throws -> AVCaptureDevice? {
        guard let choice else {
            guard let device = AVCaptureDevice.default(for: mediaType) else {
                throw CommandFailure("there is no \(mediaType == .video ? "camera" : "microphone")")
            }
            return device
        }
        if choice == "none" { return nil }
        let devices = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera, .external, .externalUnknown, .microphone, .builtInMicrophone],
            mediaType: mediaType, position: .unspecified).devices
        guard let device = devices.first(where: { $0.uniqueID == choice })
            ?? devices.first(where: { $0.localizedName.lowercased() == choice.lowercased() }) else {
            throw CommandFailure("no \(mediaType == .video ? "camera" : "microphone") is called \(choice); "
                + "`openav devices` lists them")
        }
        return device
    }

    /// A session with the chosen camera (and microphone, when `withAudio`) as inputs, the preset
    /// or format applied; the outputs are the caller's to add.
    func makeSession(withAudio: Bool) throws -> (session: AVCaptureSession, camera: AVCaptureDevice?) {
        let camera = try Self.device(video, for: .video)
        let microphone = withAudio ? try Self.device(audio, for: .audio) : nil
        guard camera != nil || microphone != nil else { throw CommandFailure("nothing to capture: no camera and no microphone") }
        let session = AVCaptureSession()
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        for device in [camera, microphone].compactMap({ $0 }) {
            let input: AVCaptureDeviceInput
            do {
                input = try AVCaptureDeviceInput(device: device)
            } catch let error as AVError {
                throw CommandFailure("cannot use \(device.localizedName): \(error.failureText)")
            }
            guard session.canAddInput(input) else { throw CommandFailure("cannot use \(device.localizedName) in a session") }
            session.addInput(input)
        }
        if let preset, let chosen = Self.preset(named: preset) {
            guard session.canSetSessionPreset(chosen) else { throw CommandFailure("the camera cannot record at preset \(preset)") }
            session.sessionPreset = chosen
        }
        if let format, let camera, let (width, height, rate) = Self.parse(format: format) {
            try Self.apply(width: width, height: height, rate: rate, to: camera)
        }
        return (session, camera)
    }

    /// Makes the camera's active format the one of that size that reaches that rate
    /// (preferring '420v').
    private static func apply(width: Int32, height: Int32, rate: Int32, to camera: AVCaptureDevice) throws {
        let duration = CMTime(value: 1, timescale: rate)
        let fitting = camera.formats.filter { format in
            let size = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
            return size.width == width && size.height == height && format.videoSupportedFrameRateRanges.contains {
                $0.minFrameDuration <= duration && duration <= $0.maxFrameDuration
            }
        }
        guard let format = fitting.first(where: {
            CMFormatDescriptionGetMediaSubType($0.formatDescription) == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        }) ?? fitting.first else {
            throw CommandFailure("\(camera.localizedName) has no format \(width)x\(height) at \(rate) fps; `openav devices` lists its formats")
        }
        do {
            try camera.lockForConfiguration()
        } catch {
            throw CommandFailure("cannot configure \(camera.localizedName): \(error.localizedDescription)")
        }
        camera.activeFormat = format
        camera.activeVideoMinFrameDuration = duration
        camera.activeVideoMaxFrameDuration = duration
        camera.unlockForConfiguration()
    }
}
