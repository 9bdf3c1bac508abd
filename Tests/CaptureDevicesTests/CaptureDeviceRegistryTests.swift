import Testing
@testable import CaptureDevices

/// The registry's listings. Other suites running beside these add virtual devices for a while
/// (File Cameras, second cameras): those are listed after the built-in ones, which are checked
/// exactly.
@Suite(.timeLimit(.minutes(10))) struct CaptureDeviceRegistryTests {
    /// The devices of a listing that are built in (not added by a test beside this one).
    static func builtIn(_ devices: [any CaptureDeviceBackend]) -> [any CaptureDeviceBackend] {
        devices.filter { device in !device.isVirtual || CaptureDeviceRegistry.virtualDevices.contains { $0 === device } }
    }

    @Test func virtualSelectionListsTheCameraThenTheMicrophone() {
        let listed = CaptureDeviceRegistry.devices(for: .virtual)
        let devices = Self.builtIn(listed)
        #expect(devices.map(\.localizedName) == ["Test Pattern Camera", "Test Tone Microphone"])
        #expect(listed.prefix(2).map(\.localizedName) == ["Test Pattern Camera", "Test Tone Microphone"], "built-in first")
        #expect(devices.allSatisfy { $0.isVirtual })
        #expect(devices.map(\.mediaKind) == [.video, .audio])
        #expect(Self.builtIn(CaptureDeviceRegistry.devices(for: .virtual, mediaKind: .audio)).map(\.localizedName) == ["Test Tone Microphone"])
    }

    @Test func hardwareSelectionListsNoVirtualDevice() {
        #expect(CaptureDeviceRegistry.devices(for: .hardware).allSatisfy { !$0.isVirtual })
    }

    @Test func allListsHardwareFirstThenVirtual() {
        let listed = CaptureDeviceRegistry.devices(for: .all)
        let firstVirtual = listed.firstIndex { $0.isVirtual } ?? listed.count
        #expect(listed[firstVirtual...].allSatisfy { $0.isVirtual })
        let devices = Self.builtIn(listed)
        #expect(devices.filter { $0.isVirtual }.count == 2)
        #expect(devices.count == CaptureDeviceRegistry.devices(for: .hardware).count + 2)
    }

    @Test func environmentVariableSelects() throws {
        let virtual = try CaptureDeviceRegistry.devices(environment: ["OPENAV_CAPTURE_DEVICES": "virtual"])
        #expect(Self.builtIn(virtual).count == 2 && virtual.allSatisfy(\.isVirtual))
        let hardware = try CaptureDeviceRegistry.devices(environment: ["OPENAV_CAPTURE_DEVICES": "hardware"])
        #expect(!hardware.contains { $0.isVirtual })
        let unset = try CaptureDeviceRegistry.devices(environment: [:])
        #expect(Self.builtIn(unset).filter { $0.isVirtual }.count == 2)
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
