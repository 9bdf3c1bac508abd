import ArgumentParser
import Dispatch
import Foundation
import OpenAVFoundation

/// `openav preview`: shows a camera in a window through `AVCaptureVideoPreviewLayer`, with the
/// microphone's level on the terminal; with `--codes`, the barcodes it sees outlined in the
/// window and printed.
struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a camera in a window, with the microphone's level on the terminal.",
        discussion: """
            Shows the default camera (the Test Pattern Camera where there is no hardware) until q, Esc, Ctrl-C or \
            the window is closed; f toggles full screen, m mirrors the picture. --codes outlines the barcodes and \
            QR codes in the picture and prints each once as it is first seen (as openav scan does). Needs a display \
            (X11, Wayland or the KMS/DRM console).
            """
    )

    @OptionGroup var camera: VideoCaptureOptions

    @Option(help: "The microphone whose level is shown: its unique ID or name, as `openav devices` lists them, or a sound file, which a File Microphone plays (default: the first microphone; 'none' for none).")
    var audio: String?

    @Flag(help: "Outline the barcodes and QR codes in the picture, and print each once as it is first seen.")
    var codes = false

    func run() throws {
        let session = AVCaptureSession()
        session.beginConfiguration()
        let device = try camera.addCamera(to: session)
        let metadata = AVCaptureMetadataOutput()
        if codes {
            guard session.canAddOutput(metadata) else { throw CommandFailure("cannot read codes from \(device.localizedName)") }
            session.addOutput(metadata)
            metadata.metadataObjectTypes = Scan.typeNames.map(\.type).filter(metadata.availableMetadataObjectTypes.contains)
        }
        let microphone = audio == nil ? AVCaptureDevice.default(for: .audio) : try DeviceLookup.microphone(audio, hasVideo: true)
        let levels = AVCaptureAudioDataOutput()
        if let microphone, let input = try? AVCaptureDeviceInput(device: microphone), session.canAddInput(input) {
            session.addInput(input)
            session.addOutput(levels)
        }
        session.commitConfiguration()

        let done = DispatchSemaphore(value: 0)
        let window: AVDisplayWindow
        do {
            window = try Self.window(showing: session, title: "openav preview: \(device.localizedName)")
        } catch let error as AVError {
            throw CommandFailure("cannot show the camera: \(error.failureText)")
        }
        let layer = window.layer as? AVCaptureVideoPreviewLayer
        let outlines = layer.map { CodeOutlines(layer: $0, printer: CodePrinter(json: false, limit: nil)) }
        if codes, let outlines { metadata.setMetadataObjectsDelegate(outlines, queue: outlines.queue) }
        window.closeHandler = { done.signal() }
        window.keyHandler = { [weak window] key in
            switch key {
            case .character("q"), .escape where window?.isFullScreen != true: done.signal()
            case .escape, .character("f"): window?.toggleFullScreen()
            case .character("m"):
                guard let connection = layer?.connection else { return }
                connection.automaticallyAdjustsVideoMirroring = false
                connection.isVideoMirrored.toggle()
            default: break
            }
        }
        let startError = StartErrorWatcher(session)
        session.startRunning()
        guard session.isRunning else {
            throw CommandFailure("the capture session did not start: \(startError.error?.failureText ?? "unknown error")")
        }
        defer { session.stopRunning() }
        let interrupt = InterruptHandler { done.signal() }
        let keys = TerminalKeys { key in if key == .character("q") { done.signal() } }
        let isTerminal = isatty(STDERR_FILENO) != 0
        while done.wait(timeout: .now() + 0.1) == .timedOut {
            if codes { outlines?.sweep() }
            guard isTerminal, let level = levels.connection(with: .audio)?.audioChannels.first?.averagePowerLevel else { continue }
            FileHandle.standardError.write(Data(("\r\(device.localizedName)  audio \(StatusLine.meter(level))\u{1B}[K").utf8))
        }
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        keys?.restore()
        interrupt.cancel()
        window.close()
    }

    /// A window showing `session` through a preview layer, the size of its video input's pictures
    /// (at most 1280x720 points).
    static func window(showing session: AVCaptureSession, title: String) throws -> AVDisplayWindow {
        let port = session.inputs.flatMap(\.ports).first { $0.mediaType == .video }
        let dimensions = port?.formatDescription.map(CMVideoFormatDescriptionGetDimensions) ?? CMVideoDimensions(width: 1280, height: 720)
        let picture = CGSize(width: Int(dimensions.width), height: Int(dimensions.height))
        let size = AVMakeRect(aspectRatio: picture, insideRect: CGRect(x: 0, y: 0, width: min(1280, picture.width), height: min(720, picture.height))).size
        return try AVDisplayWindow(layer: AVCaptureVideoPreviewLayer(session: session), title: title,
                                   size: CGSize(width: size.width.rounded(), height: size.height.rounded()))
    }
}
