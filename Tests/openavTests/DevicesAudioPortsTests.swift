import Foundation
import Testing
import TestSupport

/// `openav devices` lists the audio session's ports with their port types: against a private
/// PulseAudio daemon with a USB microphone and a headset (sine sources carrying those device
/// properties), and its null sink as the output.
@Suite(.timeLimit(.minutes(10))) struct DevicesAudioPortsTests {
    @Test func devicesListsTheSessionsPortsAndTypes() throws {
        let daemon = try PulseAudioDaemon()
        defer { daemon.stop() }
        try daemon.loadSineSource(name: "usb_mic", frequency: 300, properties: ["device.bus": "usb", "device.description": "USB-Mic"])
        try daemon.loadSineSource(name: "headset_mic", frequency: 500, properties: ["device.form_factor": "headset"])
        try daemon.pactl(["set-default-source", "usb_mic"])
        let environment = ["PULSE_SERVER": daemon.server, "OPENAV_CAPTURE_DEVICES": "all"]
        let (status, output, errors) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["devices", "--json"],
                                                                 environment: environment)
        try #require(status == 0, "openav devices failed: \(errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let ports = try #require(report["audioPorts"] as? [[String: Any]])
        let types = ports.map { "\($0["direction"] as? String ?? "") \($0["uid"] as? String ?? "") \($0["portType"] as? String ?? "")" }
        #expect(Array(types.prefix(2)) == ["input usb_mic usbAudio", "input headset_mic headsetMic"])
        #expect(types.contains("input openav-virtual-test-tone-microphone virtual"))
        #expect(types.last == "output \(daemon.sinkName) lineOut")
        #expect(ports.first?["isCurrent"] as? Bool == true)
        let (_, text, _) = try ProbeCommandTests.run(try ProbeCommandTests.openav, ["devices"], environment: environment)
        #expect(text.contains("USB-Mic  [usb_mic]  audio input, usbAudio, current"))
    }
}
