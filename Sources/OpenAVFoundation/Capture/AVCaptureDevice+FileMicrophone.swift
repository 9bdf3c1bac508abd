import CaptureDevices
import Foundation

extension AVCaptureDevice {
    /// A virtual microphone that plays a sound file, or a movie's sound. Linux addition, the
    /// File Camera's companion: for testing apps that listen on machines without a microphone,
    /// and for feeding a recorded sound into a capture session.
    ///
    /// The microphone offers the file's sample rate and channel count as 32-bit float or 16-bit
    /// integer PCM (other rates and channel counts are converted on request), and plays the file
    /// in real time on the host clock from its first sample, looping at its end without a gap.
    /// Discovery lists it from now on, after the built-in virtual devices, as `microphone`;
    /// asking again for the same file returns the same device. `OPENAV_FILE_MICROPHONE=path`
    /// lists one for a file from the start of a process. Throws
    /// `AVError.fileFormatNotRecognized` when the file has no sound this machine decodes (or
    /// does not exist).
    public static func fileMicrophone(playing url: URL) throws -> AVCaptureDevice {
        try fileDevice(FileMicrophone.self, playing: url)
    }
}
