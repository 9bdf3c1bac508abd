import Foundation
import OpenAVFoundation

/// Finds the capture device a `--video` or `--audio` argument names: by its unique ID, by its
/// V4L2 device node (a path; symbolic links such as /dev/v4l/by-id/… resolved), or by its name
/// in any case, among the devices discovery lists for `mediaType`.
enum DeviceLookup {
    /// The device `name` names; `kind` ("camera", "microphone") words the error.
    static func device(_ name: String, mediaType: AVMediaType, deviceTypes: [AVCaptureDevice.DeviceType],
                       kind: String) throws -> AVCaptureDevice {
        let devices = AVCaptureDevice.DiscoverySession(deviceTypes: deviceTypes, mediaType: mediaType,
                                                       position: .unspecified).devices
        let path = name.hasPrefix("/") ? URL(fileURLWithPath: name).resolvingSymlinksInPath().path : nil
        guard let device = devices.first(where: { $0.uniqueID == name })
                ?? devices.first(where: { path != nil && $0.v4l2DevicePath == path })
                ?? devices.first(where: { $0.localizedName.lowercased() == name.lowercased() }) else {
            throw CommandFailure("no \(kind) \"\(name)\"; `openav devices` lists them")
        }
        return device
    }

    /// The regular file `argument` names, if it names one (a device node is not one): a File
    /// Camera's or File Microphone's.
    static func mediaFile(_ argument: String) -> URL? {
        let url = URL(fileURLWithPath: argument).resolvingSymlinksInPath()
        let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
        return type == .typeRegular ? url : nil
    }

    /// The microphone an `--audio` argument names (nil for "none"; a sound file, which a File
    /// Microphone plays), or without one the default
    /// microphone; on a machine without one, none, said in one line, when there is video.
    static func microphone(_ name: String?, hasVideo: Bool) throws -> AVCaptureDevice? {
        guard let name else {
            guard let microphone = AVCaptureDevice.default(for: .audio) else {
                guard hasVideo else { throw CommandFailure("nothing to capture: --video none and no microphone found") }
                FileHandle.standardError.write(Data("No microphone found: video only.\n".utf8))
                return nil
            }
            return microphone
        }
        if name == "none" { return nil }
        if let file = mediaFile(name) {
            do {
                return try AVCaptureDevice.fileMicrophone(playing: file)
            } catch let error as AVError {
                throw CommandFailure("cannot play \(name) as a microphone: \(error.failureText)")
            }
        }
        return try device(name, mediaType: .audio, deviceTypes: [.microphone, .builtInMicrophone, .external], kind: "microphone")
    }
}
