import Testing
@testable import CaptureDevices

@Suite(.timeLimit(.minutes(10))) struct DeviceSelectionTests {
    @Test func unsetOrEmptyMeansAll() throws {
        #expect(try DeviceSelection(environment: [:]) == .all)
        #expect(try DeviceSelection(environment: ["OPENAV_CAPTURE_DEVICES": ""]) == .all)
    }

    @Test func eachValueSelectsItsDevices() throws {
        let virtual = try DeviceSelection(environment: ["OPENAV_CAPTURE_DEVICES": "virtual"])
        #expect(virtual.includesVirtual && !virtual.includesHardware)
        let hardware = try DeviceSelection(environment: ["OPENAV_CAPTURE_DEVICES": "HARDWARE"])
        #expect(hardware.includesHardware && !hardware.includesVirtual)
        let all = try DeviceSelection(environment: ["OPENAV_CAPTURE_DEVICES": "all"])
        #expect(all.includesHardware && all.includesVirtual)
    }

    @Test func unknownValueIsAnErrorNamingTheChoices() {
        #expect {
            try DeviceSelection(environment: ["OPENAV_CAPTURE_DEVICES": "webcam"])
        } throws: { error in
            "\(error)".contains("webcam") && "\(error)".contains("virtual, hardware, all")
        }
    }
}
