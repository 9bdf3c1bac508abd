import Foundation
import Testing
import TestSupport

extension RealTimeDeviceTests {
    /// Runs the V4L2 tests against a real kernel camera: boots `scripts/vivid-vm` (qemu, this
    /// machine's Debian kernel, the `vivid` driver) and runs every `VividGuestTests` suite of this
    /// very test binary inside it (CaptureDevices' and OpenAVFoundation's), one test at a time. Fails, loudly, when the VM cannot run (qemu or the kernel missing: the
    /// message says to run `scripts/setup`), when any guest test fails, or when fewer guest tests
    /// ran than this binary has. Serialized with the other real-time tests: the emulated VM takes
    /// the machine's cores for about two and a half minutes.
    @Suite(.enabled(if: !Vivid.isInsideVM), .timeLimit(.minutes(30))) struct VividVMTests {
        @Test func theV4L2TestsPassAgainstVividInAVM() throws {
            try HeavyLoad.exclusively {
                let repository = URL(fileURLWithPath: #filePath)
                    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
                let listing = String(decoding: try run(runner, ["--testing-library", "swift-testing", "--list-tests"]), as: UTF8.self)
                let expected = listing.split(separator: "\n").filter { $0.contains("VividGuestTests") }.count
                try #require(expected >= 10, "the guest suite has \(expected) tests")

                let (status, output) = try runMerged(repository.appendingPathComponent("scripts/vivid-vm").path,
                                                          ["--", runner, "--testing-library", "swift-testing", "--no-parallel",
                                                           "--filter", "VividGuestTests"],
                                                          in: repository,
                                                          // The suite takes about 140 s here; room for a slower machine.
                                                          environment: ["OPENAV_VM_TIMEOUT": ProcessInfo.processInfo.environment["OPENAV_VM_TIMEOUT"] ?? "900"])
                let tail = output.split(separator: "\n", omittingEmptySubsequences: false).suffix(80).joined(separator: "\n")
                #expect(status == 0, "scripts/vivid-vm exited with \(status):\n\(tail)")
                let summary = output.firstMatch(of: /Test run with (\d+) tests? .*passed/)
                #expect(summary.map { Int($0.1) } == expected, "\(expected) guest tests should pass:\n\(tail)")
                print(output.split(separator: "\n").filter { $0.contains("vivid") || $0.contains("Test run") }.joined(separator: "\n"))
            }
        }
    }
}
