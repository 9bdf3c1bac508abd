import Foundation
import Testing
import OpenCoreMedia
import OpenCoreVideo
@testable import CaptureDevices

extension VividGuestTests {
    /// Discovery, formats and controls, each against `v4l2-ctl`'s view of the same node.
    @Suite(.timeLimit(.minutes(10))) struct DiscoveryTests {
        /// `v4l2-ctl --info`: the driver, card, bus and the node's own capabilities.
        struct Info {
            var driver = ""
            var card = ""
            var bus = ""
            var deviceCaps: [String] = []
        }

        /// The node's info, or nil when v4l2-ctl cannot open it (a node the disconnect test unplugged).
        static func info(_ path: String) -> Info? {
            guard let text = try? Vivid.v4l2ctl("-d", path, "--info") else { return nil }
            var info = Info()
            var inDeviceCaps = false
            for line in text.split(separator: "\n") {
                let text = line.trimmingCharacters(in: .whitespaces)
                let value = { text.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
                if inDeviceCaps && line.hasPrefix("\t\t") {
                    info.deviceCaps.append(text)
                    continue
                }
                inDeviceCaps = text.hasPrefix("Device Caps")
                if text.hasPrefix("Driver name") && info.driver.isEmpty { info.driver = value() }
                if text.hasPrefix("Card type") { info.card = value() }
                if text.hasPrefix("Bus info") && info.bus.isEmpty { info.bus = value() }
            }
            return info
        }

        @Test func listsExactlyTheCaptureNodesWithNamesAndIDs() throws {
            var expected: [(path: String, info: Info)] = []
            var skipped: [String] = []
            for path in V4L2Discovery.nodePaths() {
                if let info = Self.info(path), info.deviceCaps.contains("Video Capture"), info.deviceCaps.contains("Streaming") {
                    expected.append((path, info))
                } else {
                    skipped.append(path)
                }
            }
            // vivid's output and metadata nodes are there to be skipped.
            #expect(skipped.count >= 2, "nodes without video capture: \(skipped)")
            let cameras = V4L2Discovery.cameras()
            #expect(cameras.map(\.path) == expected.map(\.path))
            #expect(cameras.map(\.path).starts(with: ["/dev/video0"]))
            for (camera, (_, info)) in zip(cameras, expected) {
                #expect(camera.localizedName == info.card)
                #expect(camera.uniqueID == "\(info.bus):\(info.driver):\(info.card)")
                #expect(camera.modelID == "\(info.driver):\(info.card)")
                #expect(camera.manufacturer == info.driver)
                #expect(camera.isConnected && !camera.isRunning && !camera.isVirtual && camera.mediaKind == .video)
            }
            #expect(try Vivid.camera().uniqueID == "platform:vivid-000:vivid:vivid")
            #expect(Set(cameras.map(\.uniqueID)).count == cameras.count)
            // Every listing returns the same objects.
            #expect(zip(cameras, V4L2Discovery.cameras()).allSatisfy { $0 === $1 })
        }

        @Test func theRegistryListsTheCamerasBeforeTheVirtualDevices() throws {
            let all = CaptureDeviceRegistry.devices(for: .all)
            let cameras = V4L2Discovery.cameras()
            #expect(all.prefix(cameras.count).map(\.uniqueID) == cameras.map(\.uniqueID))
            #expect(all.dropFirst(cameras.count).allSatisfy { $0.isVirtual })
            #expect(CaptureDeviceRegistry.devices(for: .hardware).map(\.uniqueID) == cameras.map(\.uniqueID))
            #expect(CaptureDeviceRegistry.devices(for: .virtual).allSatisfy { $0.isVirtual })
            #expect(V4L2Discovery.accessStatus() == .granted)
        }

        @Test func aUserOutsideTheVideoGroupIsDeniedWithAMessageNamingIt() throws {
            // The nodes are root's alone here (no udev): this binary, run as nobody, is refused.
            let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            let (status, output) = try runMerged("/usr/bin/setpriv",
                                                 ["--reuid=65534", "--regid=65534", "--clear-groups", runner,
                                                  "--testing-library", "swift-testing", "--filter", "whatNobodySees"],
                                                 environment: ["OPENAV_VIVID_UNPRIVILEGED": "1"])
            #expect(status == 0 && output.contains("Test run with 1 test"), "\(output.suffix(3000))")
        }

        @Test(.enabled(if: ProcessInfo.processInfo.environment["OPENAV_VIVID_UNPRIVILEGED"] == "1",
                       "run as nobody by aUserOutsideTheVideoGroupIsDeniedWithAMessageNamingIt"))
        func whatNobodySees() throws {
            #expect(getuid() != 0)
            guard case .denied(let message) = V4L2Discovery.accessStatus() else {
                Issue.record("access is not denied to uid \(getuid())")
                return
            }
            #expect(message.contains("/dev/video0") && message.contains("`video` group"), "\(message)")
            #expect(V4L2Discovery.cameras().isEmpty)
            do {
                _ = try V4L2Node(path: Vivid.mainPath)
                Issue.record("nobody opened \(Vivid.mainPath)")
            } catch {
                #expect(error.reason == .unavailable && error.message == message)
            }
        }

        /// `v4l2-ctl --list-formats-ext`: per four-character code, per size (in order), the
        /// frame rates as it prints them (`"15.000"`).
        static func oracleFormats(_ path: String) throws -> [String: [(size: String, rates: [String])]] {
            var formats: [String: [(size: String, rates: [String])]] = [:]
            var code = ""
            // Plain string matching: Swift regexes are slow in a debug build under emulation.
            for line in try Vivid.v4l2ctl("-d", path, "--list-formats-ext").split(separator: "\n") {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.hasPrefix("["), let open = text.firstIndex(of: "'") {
                    code = String(text[text.index(after: open)...].prefix(4))
                } else if text.hasPrefix("Size: Discrete ") {
                    formats[code, default: []].append((String(text.dropFirst("Size: Discrete ".count)), []))
                } else if text.hasPrefix("Interval: Discrete "), let open = text.firstIndex(of: "(") {
                    let rate = text[text.index(after: open)...].prefix { $0 != " " }
                    formats[code]![formats[code]!.count - 1].rates.append(String(rate))
                }
            }
            return formats
        }

        @Test func formatsAndFrameRatesMatchV4L2Ctl() throws {
            let camera = try Vivid.camera()
            let oracle = try Self.oracleFormats(camera.path)
            #expect(oracle.count > 50, "vivid lists its many formats: \(oracle.count)")
            // Exactly the driver's formats the backend can convert are offered, in the driver's order.
            let offeredCodes = Set(camera.videoFormats.compactMap(\.v4l2PixelFormat).map(V4L2PixelFormat.name(of:)))
            let convertible = Set(oracle.keys.filter { V4L2PixelFormat.supported(fourCC: V4L2PixelFormat.fourCC($0)) != nil })
            #expect(offeredCodes == convertible)
            #expect(offeredCodes.isSuperset(of: ["YUYV", "UYVY", "NV12", "YU12", "RGB3", "BGR3", "AR24", "XR24"]))
            for code in ["YUYV", "NV12", "RGB3", "AR24"] {
                let ours = camera.videoFormats.filter { $0.v4l2PixelFormat == V4L2PixelFormat.fourCC(code) }
                let theirs = try #require(oracle[code])
                #expect(ours.map { "\($0.width)x\($0.height)" } == theirs.map(\.size), "\(code) sizes")
                for (format, (size, rates)) in zip(ours, theirs) {
                    // Discrete rates: one range each, the highest first (v4l2-ctl lists the lowest first).
                    #expect(format.frameRateRanges.allSatisfy { $0.minFrameDuration == $0.maxFrameDuration })
                    let ourRates = format.frameRateRanges.reversed().map { String(format: "%.3f", $0.maxFrameRate) }
                    #expect(ourRates == rates, "\(code) \(size) frame rates")
                    let delivered = code.hasPrefix("RGB") || code.hasSuffix("24")
                        ? kCVPixelFormatType_32BGRA : kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
                    #expect(format.pixelFormat == delivered)
                }
            }
            // The highest rate at 320x180 is 60 fps, as an exact duration.
            let small = try #require(camera.videoFormats.first { $0.width == 320 && $0.height == 180 })
            #expect(small.frameRateRanges.first?.minFrameDuration == CMTime(value: 1, timescale: 60))
            #expect(small.supports(frameDuration: CMTime(value: 2, timescale: 25)))
            #expect(!small.supports(frameDuration: CMTime(value: 1, timescale: 24)))
        }

        @Test func controlsMatchV4L2Ctl() throws {
            let camera = try Vivid.camera()
            let controls = try camera.driverControls()
            // v4l2-ctl -L: "name 0x00980900 (int) : min=0 max=255 step=1 default=128 value=128 flags=slider".
            var oracle: [String: (id: UInt32, fields: [String: Int64])] = [:]
            for line in try Vivid.v4l2ctl("-d", camera.path, "-L").split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.count >= 3, words[1].hasPrefix("0x"), let id = UInt32(words[1].dropFirst(2), radix: 16) else { continue }
                var fields: [String: Int64] = [:]
                for field in words.dropFirst(3) {
                    let parts = field.split(separator: "=")
                    if parts.count == 2, let number = Int64(parts[1]) { fields[String(parts[0])] = number }
                }
                oracle[String(words[0])] = (id, fields)
            }
            for name in ["brightness", "contrast", "saturation", "hue", "gain_automatic", "gain", "horizontal_flip",
                         "vertical_flip", "osd_text_mode", "test_pattern", "percentage_of_dropped_buffers", "disconnect"] {
                let control = try #require(controls.first { $0.name == name }, "no control \(name)")
                let expected = try #require(oracle[name], "v4l2-ctl lists no \(name)")
                #expect(control.id.rawValue == expected.id, "\(name) id")
                if control.kind != .button {
                    #expect(control.minimum == expected.fields["min"] ?? 0, "\(name) min")
                    #expect(control.maximum == expected.fields["max"] ?? 1, "\(name) max")
                    #expect(control.defaultValue == expected.fields["default"], "\(name) default")
                    if name != "gain" {  // volatile: vivid derives it from the time while gain is automatic
                        #expect(try camera.value(ofControlNamed: name) == expected.fields["value"], "\(name) value")
                    }
                }
            }
            #expect(controls.first { $0.id == .horizontalFlip }?.kind == .boolean)
            #expect(controls.first { $0.name == "test_pattern" }?.menuItems[3] == "Horizontal 100% Colorbar")
            #expect(controls.first { $0.name == "disconnect" }?.kind == .button)
            #expect(controls.first { $0.name == "gain" }?.isInactive == true, "gain is inactive while automatic")
            let ids = Set(controls.map(\.id))
            #expect(ids.isSuperset(of: [.brightness, .verticalFlip]))
            #expect(ids.isDisjoint(with: [.focusAbsolute, .exposureAbsolute]), "vivid has no camera-class controls")
            // Set and read back, by identifier and by name; a menu item that does not exist is an error.
            try Vivid.withControls(camera, ["contrast": 77]) { () throws in
                #expect(try camera.value(of: .contrast) == 77)
                #expect(try Vivid.v4l2ctl("-d", camera.path, "-C", "contrast").contains("contrast: 77"))
            }
            #expect(try camera.value(of: .contrast) == 128)
            #expect(throws: CaptureDeviceError.self) { try camera.setValue(99, ofControlNamed: "test_pattern") }
            #expect(throws: CaptureDeviceError.self) { try camera.setValue(1, ofControlNamed: "no_such_control") }
        }
    }
}
