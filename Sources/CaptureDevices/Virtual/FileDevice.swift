import Foundation
import Logging

/// A virtual device that plays a file (the File Camera, the File Microphone): one device a
/// file, named after it, and one made from an environment variable for a whole process.
package protocol FileDevice: CaptureDeviceBackend {
    /// The start of the unique IDs of this kind of device.
    static var uniqueIDPrefix: String { get }
    /// The environment variable naming a file such a device plays from the start of the process.
    static var environmentVariable: String { get }
    /// A device playing `url`; throws when the file has nothing this kind of device plays.
    init(url: URL) throws(CaptureDeviceError)
}

extension FileDevice {
    /// The project's, as its other virtual devices.
    package var manufacturer: String { "OpenAVFoundation" }
    /// A file device is virtual.
    package var isVirtual: Bool { true }

    /// The unique ID of the device playing `url`.
    package static func uniqueID(of url: URL) -> String {
        uniqueIDPrefix + url.standardizedFileURL.path
    }

    /// The device the environment variable asks for, if any (an error logged when its file
    /// cannot be played).
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [Self] {
        guard let path = environment[environmentVariable], !path.isEmpty else { return [] }
        do throws(CaptureDeviceError) {
            return [try Self(url: URL(fileURLWithPath: path))]
        } catch {
            Logger(label: "OpenAVFoundation.CaptureDevices.\(Self.self)").error("\(environmentVariable)=\(path): \(error.message)")
            return []
        }
    }
}
