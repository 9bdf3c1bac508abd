import Testing
@testable import CaptureDevices

@Suite(.timeLimit(.minutes(10))) struct CaptureDeviceRegistryTests {
    @Test func virtualSelectionListsTheCameraThenTheMicrophone() {
        let devices = CaptureDeviceRegistry.devices(for: .virtual)
        #expect(devices.map(\.localizedName) == ["Test Pattern Camera", "Test Tone Microphone"])
        #expect(devices.allSatisfy { $0.isVirtual })
        #expect(devices.map(\.mediaKind) == [.video, .audio])
        #expect(CaptureDeviceRegistry.devices(for: .virtual, mediaKind: .audio).map(\.localizedName) == ["Test Tone Microphone"])
    }

    @Test func hardwareSelectionListsNoVirtualDevice() {
        #expect(CaptureDeviceRegistry.devices(for: .hardware).allSatisfy { !$0.isVirtual })
    }

    @Test func allListsHardwareFirstThenVirtual() {
        let devices = CaptureDeviceRegistry.devices(for: .all)
        let firstVirtual = devices.firstIndex { $0.isVirtual } ?? devices.count
        #expect(devices[firstVirtual...].allSatisfy { $0.isVirtual })
        #expect(devices.filter { $0.isVirtual }.count == 2)
        #expect(devices.count == CaptureDeviceRegistry.devices(for: .hardware).count + 2)
    }

    @Test func environmentVariableSelects() throws {
        let virtual = try CaptureDeviceRegistry.devices(environment: ["OPENAV_CAPTURE_DEVICES": "virtual"])
        #expect(virtual.count == 2)
        let hardware = try CaptureDeviceRegistry.devices(environment: ["OPENAV_CAPTURE_DEVICES": "hardware"])
        #expect(!hardware.contains { $0.isVirtual })
        let unset = try CaptureDeviceRegistry.devices(environment: [:])
        #expect(unset.filter { $0.isVirtual }.count == 2)
        #expect(throws: DeviceSelectionError.self) {
            try CaptureDeviceRegistry.devices(environment: ["OPENAV_CAPTURE_DEVICES": "cameras"])
        }
    }

    @Test func listingsReturnTheSameDeviceObjectsWithUniqueIDs() {
        let first = CaptureDeviceRegistry.devices(for: .all)
        let second = CaptureDeviceRegistry.devices(for: .all)
        #expect(zip(first, second).allSatisfy { $0 === $1 })
        #expect(Set(first.map(\.uniqueID)).count == first.count)
        let camera = CaptureDeviceRegistry.device(uniqueID: "openav-virtual-test-pattern-camera")
        #expect(camera === first.first { $0.localizedName == "Test Pattern Camera" })
        #expect(CaptureDeviceRegistry.device(uniqueID: "openav-virtual-test-pattern-camera", selection: .hardware) == nil)
    }
}
