import ArgumentParser
import Foundation
import OpenAVFoundation

/// `openav devices [--json]`: the capture devices discovery lists (hardware first, then the
/// virtual ones), each with its formats and frame rate ranges, the screens of `$DISPLAY`, and
/// the audio session's ports (its available inputs and the current route's outputs) with their
/// port types.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List cameras and microphones with their formats and frame rates, and the X11 screens.",
        discussion: """
            OPENAV_CAPTURE_DEVICES=virtual|hardware|all (default all) restricts the cameras and \
            microphones. Screens are those of the X11 display in DISPLAY (for `openav record --screen`).
            """
    )

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let report = DevicesReport(devices: AVCaptureDevice.DiscoverySession(
            deviceTypes: [.external, .builtInWideAngleCamera, .microphone], mediaType: nil, position: .unspecified).devices,
                                   screens: ScreenCaptureOptions.screens().map(DevicesReport.Screen.init),
                                   session: AVAudioSession.sharedInstance())
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
    }
}

/// What `openav devices` reports, as text or JSON.
struct DevicesReport: Encodable {
    /// One frame rate range.
    struct Rates: Encodable {
        let minFrameRate: Double
        let maxFrameRate: Double
    }

    /// One device format: video size and rates, or audio rate and channels.
    struct Format: Encodable {
        let mediaSubType: String
        let width: Int32?
        let height: Int32?
        let frameRateRanges: [Rates]?
        let sampleRate: Double?
        let channels: UInt32?
        /// The PCM sample type, such as "float32" or "int16".
        let sampleFormat: String?

        init(_ format: AVCaptureDevice.Format) {
            let description = format.formatDescription
            let code = CMFormatDescriptionGetMediaSubType(description)
            mediaSubType = ProbeReport.readableFourCC(code) ?? String(code)
            let isVideo = format.mediaType == .video
            let dimensions = CMVideoFormatDescriptionGetDimensions(description)
            width = isVideo ? dimensions.width : nil
            height = isVideo ? dimensions.height : nil
            frameRateRanges = isVideo ? format.videoSupportedFrameRateRanges.map {
                Rates(minFrameRate: $0.minFrameRate, maxFrameRate: $0.maxFrameRate)
            } : nil
            let asbd = description.audioStreamBasicDescription
            sampleRate = asbd?.mSampleRate
            channels = asbd?.mChannelsPerFrame
            sampleFormat = asbd.map {
                ($0.mFormatFlags & kAudioFormatFlagIsFloat != 0 ? "float" : "int") + String($0.mBitsPerChannel)
            }
        }

        var text: String {
            var parts = ["'\(mediaSubType)'"]
            if let width, let height { parts.append("\(width)x\(height)") }
            if let frameRateRanges {
                parts.append(frameRateRanges.map { DevicesReport.rateText(min: $0.minFrameRate, max: $0.maxFrameRate) }
                    .joined(separator: ", "))
            }
            if let sampleRate { parts.append("\(Int(sampleRate)) Hz") }
            if let channels { parts.append("\(channels) ch") }
            if let sampleFormat { parts.append(sampleFormat) }
            return "    " + parts.joined(separator: "  ")
        }
    }

    /// One device.
    struct Device: Encodable {
        let uniqueID: String
        let localizedName: String
        let manufacturer: String
        let modelID: String
        /// A V4L2 camera's device node (what `--video` also takes); nil for other devices.
        let devicePath: String?
        let mediaType: String
        let deviceType: String
        let isDefault: Bool
        let activeFormat: Int?
        let formats: [Format]

        init(_ device: AVCaptureDevice) {
            uniqueID = device.uniqueID
            localizedName = device.localizedName
            manufacturer = device.manufacturer
            modelID = device.modelID
            devicePath = device.v4l2DevicePath
            let type: AVMediaType = device.hasMediaType(.video) ? .video : .audio
            mediaType = type.rawValue
            deviceType = device.deviceType.rawValue
            isDefault = AVCaptureDevice.default(for: type) === device
            activeFormat = device.formats.firstIndex(of: device.activeFormat)
            formats = device.formats.map(Format.init)
        }

        var text: String {
            let kind = mediaType == AVMediaType.video.rawValue ? "camera" : "microphone"
            let heading = "\(localizedName)  [\(uniqueID)]  \(kind), \(manufacturer)\(devicePath.map { ", " + $0 } ?? "")"
                + (isDefault ? ", default" : "")
            return ([heading, "  formats:"] + formats.map(\.text)).joined(separator: "\n")
        }
    }

    /// One X11 screen.
    struct Screen: Encodable {
        /// The name `openav record --screen` takes (":0", ":0.1").
        let display: String
        /// The `AVCaptureScreenInput(displayID:)` of the screen.
        let displayID: UInt32
        let width: Int32
        let height: Int32

        init(_ screen: (display: String, displayID: CGDirectDisplayID, width: Int32, height: Int32)) {
            (display, displayID, width, height) = screen
        }

        var text: String { "Screen \(display)  [displayID \(displayID)]  screen, \(width)x\(height)" }
    }

    /// One port of the audio session.
    struct AudioPort: Encodable {
        /// "input" or "output".
        let direction: String
        let uid: String
        let portName: String
        /// The `AVAudioSession.Port` constant's name ("builtInMic", "usbAudio").
        let portType: String
        /// The names of its data sources, when it has several.
        let dataSources: [String]?
        /// The selected data source's name.
        let selectedDataSource: String?
        /// Whether it is in the current route.
        let isCurrent: Bool

        init(_ port: AVAudioSessionPortDescription, direction: String, isCurrent: Bool) {
            self.direction = direction
            uid = port.uid
            portName = port.portName
            portType = AudioPort.name(of: port.portType)
            dataSources = port.dataSources?.map(\.dataSourceName)
            selectedDataSource = port.selectedDataSource?.dataSourceName
            self.isCurrent = isCurrent
        }

        /// The Swift name of a port type, as code writes it.
        static func name(of type: AVAudioSession.Port) -> String {
            let names: [AVAudioSession.Port: String] = [
                .builtInMic: "builtInMic", .headsetMic: "headsetMic", .lineIn: "lineIn", .usbAudio: "usbAudio",
                .bluetoothHFP: "bluetoothHFP", .bluetoothA2DP: "bluetoothA2DP", .virtual: "virtual", .lineOut: "lineOut",
                .headphones: "headphones", .builtInSpeaker: "builtInSpeaker", .HDMI: "HDMI", .PCI: "PCI",
            ]
            return names[type] ?? type.rawValue
        }

        var text: String {
            var line = "\(portName)  [\(uid)]  audio \(direction), \(portType)" + (isCurrent ? ", current" : "")
            if let dataSources {
                line += "\n  data sources: " + dataSources.map { $0 == selectedDataSource ? "\($0) (selected)" : $0 }
                    .joined(separator: ", ")
            }
            return line
        }
    }

    let devices: [Device]
    let screens: [Screen]
    let audioPorts: [AudioPort]

    init(devices: [AVCaptureDevice], screens: [Screen], session: AVAudioSession) {
        self.devices = devices.map(Device.init)
        self.screens = screens
        let route = session.currentRoute
        let current = Set(route.inputs.map(\.uid))
        audioPorts = (session.availableInputs ?? []).map { AudioPort($0, direction: "input", isCurrent: current.contains($0.uid)) }
            + route.outputs.map { AudioPort($0, direction: "output", isCurrent: true) }
    }

    var text: String {
        let lines = devices.map(\.text) + screens.map(\.text) + audioPorts.map(\.text)
        return lines.isEmpty ? "no capture devices" : lines.joined(separator: "\n")
    }

    /// A frame rate range as text: "1-240 fps", or "30 fps" for a single rate.
    static func rateText(min: Double, max: Double) -> String {
        let number = { (rate: Double) in rate == rate.rounded() ? String(Int(rate)) : String(format: "%.3f", rate) }
        return min == max ? "\(number(max)) fps" : "\(number(min))-\(number(max)) fps"
    }

    /// A device format's frame rate range as text.
    static func rateText(_ range: AVFrameRateRange) -> String {
        rateText(min: range.minFrameRate, max: range.maxFrameRate)
    }
}
