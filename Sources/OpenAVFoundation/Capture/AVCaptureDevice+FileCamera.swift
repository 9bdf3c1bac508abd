import CaptureDevices
import Foundation

extension AVCaptureDevice {
    /// A virtual camera that plays a movie or still image file. Linux addition (as browsers'
    /// fake capture devices play a file): for testing apps that scan codes or find faces on
    /// machines without a camera, and for feeding a recorded scene into a capture session.
    ///
    /// The camera offers the file's picture size in `'420v'`, `'420f'` and `'BGRA'`, from one
    /// frame a second up to the file's frame rate (a still image: up to 60), and plays the file
    /// in real time on the host clock, looping at its end; at the file's own rate every frame of
    /// it is delivered once, in order. Discovery lists it from now on, after the built-in
    /// virtual devices, as `builtInWideAngleCamera`; asking again for the same file returns the
    /// same device. `OPENAV_FILE_CAMERA=path` lists one for a file from the start of a process.
    /// Throws `AVError.fileFormatNotRecognized` when the file has no picture this machine
    /// decodes (or does not exist).
    public static func fileCamera(playing url: URL) throws -> AVCaptureDevice {
        try fileDevice(FileCamera.self, playing: url)
    }

    /// The device of `kind` playing `url`: the one listed already, or a new one, listed from
    /// now on; `AVError.fileFormatNotRecognized` when the file has nothing it plays.
    static func fileDevice<Kind: FileDevice>(_ kind: Kind.Type, playing url: URL) throws -> AVCaptureDevice {
        let id = Kind.uniqueID(of: url)
        if let known = listed().first(where: { $0.uniqueID == id }) { return known }
        do throws(CaptureDeviceError) {
            let device = try Kind(url: url)
            CaptureDeviceRegistry.addVirtualDevice(device)
            return wrapper(of: device)
        } catch {
            throw AVError(.fileFormatNotRecognized, reason: error.message, userInfo: [NSURLErrorKey: url])
        }
    }
}
