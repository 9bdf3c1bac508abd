import ArgumentParser
import Foundation
import OpenAVFoundation

/// `openav snapshot OUTPUT.jpg [--video DEVICE] [--preset P | --format WxH@FPS]`: one photo from
/// a camera with `AVCapturePhotoOutput`, written as a JPEG with EXIF metadata.
struct Snapshot: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take a photo with a camera and write it as JPEG.",
        discussion: """
            The photo is the next frame the camera delivers once it runs, at the size of its format \
            (--preset or --format choose it). Without hardware the Test Pattern Camera takes it. An \
            existing file is never overwritten.
            """
    )

    @Argument(help: "The JPEG file to write (.jpg or .jpeg).")
    var output: String

    @OptionGroup var camera: VideoCaptureOptions

    /// How long to wait for the camera to deliver a frame.
    static let timeout: TimeInterval = 15

    func validate() throws {
        guard ["jpg", "jpeg"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) else {
            throw ValidationError("OUTPUT must end in .jpg or .jpeg")
        }
    }

    func run() throws {
        let url = URL(fileURLWithPath: output)
        if FileManager.default.fileExists(atPath: url.path) { throw CommandFailure("\(output) exists; not overwriting it") }

        let session = AVCaptureSession()
        let device = try camera.addCamera(to: session)
        let photoOutput = AVCapturePhotoOutput()
        guard session.canAddOutput(photoOutput) else { throw CommandFailure("cannot add a photo output") }
        session.addOutput(photoOutput)

        let startError = StartErrorWatcher(session)
        session.startRunning()
        defer { session.stopRunning() }
        guard session.isRunning else {
            throw CommandFailure("cannot start \(device.localizedName): \(startError.error?.failureText ?? "unknown error")")
        }

        let taker = PhotoTaker()
        photoOutput.capturePhoto(with: AVCapturePhotoSettings(), delegate: taker)
        guard taker.done.wait(timeout: .now() + Self.timeout) == .success else {
            throw CommandFailure("\(device.localizedName) delivered no frame within \(Int(Self.timeout)) s")
        }
        guard let photo = taker.photo, let data = photo.fileDataRepresentation() else {
            throw CommandFailure("no photo: \((taker.error as? AVError)?.failureText ?? taker.error.map { "\($0)" } ?? "unknown error")")
        }
        do {
            try data.write(to: url, options: .withoutOverwriting)
        } catch {
            throw CommandFailure("cannot write \(output): \(error.localizedDescription)")
        }
        let size = photo.resolvedSettings.photoDimensions
        print(String(format: "%@  %dx%d  %@  at %.3f s", output, size.width, size.height, device.localizedName,
                     photo.timestamp.seconds))
    }
}

/// Keeps the photo a capture delivers and signals when the capture is complete.
private final class PhotoTaker: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private(set) var photo: AVCapturePhoto?
    private(set) var error: (any Error)?

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        self.photo = error == nil ? photo : nil
        self.error = error
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                     error: (any Error)?) {
        done.signal()
    }
}
