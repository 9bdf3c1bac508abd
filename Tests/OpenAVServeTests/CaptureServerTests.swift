import CaptureDevices
import Foundation
import OpenAVFoundation
import OpenAVServe
import Testing
import TestSupport

/// `CaptureServer` in the test process, over a session of a Test Pattern Camera of the test's
/// own, so that the camera can be unplugged (`simulateDisconnect`): what a user of the page sees
/// when the camera goes while a recording runs.
@Suite(.serialized, HeavyLoad.Scope(), .timeLimit(.minutes(10))) struct CaptureServerTests {
    /// The server's page address once it listens, and the task serving it.
    static func start(_ server: CaptureServer) async throws -> (URL, Task<Void, any Error>) {
        let (addresses, continuation) = AsyncStream<URL>.makeStream()
        let task = Task { try await server.run { continuation.yield($0) } }
        for await address in addresses { return (address, task) }
        throw FixtureError(message: "the server never listened")
    }

    /// The page's status as JSON.
    static func status(_ base: String, _ cookie: String) throws -> [String: Any] {
        let (_, body) = try HTTPProbe.request("GET", base + "/api/status", cookie: cookie)
        return try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] ?? [:]
    }

    /// Polls the status every 50 ms until `condition` holds (at most 10 s): the page's API gives
    /// no notice of a change (the page polls it too); the last status.
    static func waitForStatus(_ base: String, _ cookie: String, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var status: [String: Any] = [:]
        _ = try await pollUntil(timeout: 10, every: 0.05) {
            status = try Self.status(base, cookie)
            return condition(status)
        }
        return status
    }

    @Test func aCameraUnpluggedWhileRecordingFinishesTheFileAndThePageSaysSo() async throws {
        let camera = TestPatternCamera(uniqueID: "serve-unplugged", localizedName: "Test Camera serve-unplugged")
        CaptureDeviceRegistry.addVirtualDevice(camera)
        defer {
            camera.stop()
            CaptureDeviceRegistry.removeVirtualDevice(camera)
        }
        let device = try #require(AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video,
                                                                  position: .unspecified).devices.first { $0.uniqueID == "serve-unplugged" })
        let session = AVCaptureSession()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: device))
        let folder = Fixtures.folder.appendingPathComponent("serve-\(UUID().uuidString)")
        let server = try CaptureServer(session: session, recordingsFolder: folder, port: 0)
        let (page, task) = try await Self.start(server)
        defer { task.cancel() }
        let base = "http://\(page.host!):\(page.port!)", cookie = "openav-token-\(page.port!)=\(server.token)"

        let (started, body) = try HTTPProbe.request("POST", base + "/api/recording/start", cookie: cookie)
        #expect(started == 200, "\(body)")
        _ = try await Self.waitForStatus(base, cookie) { ($0["recordedSeconds"] as? Double ?? 0) >= 1 }
        camera.simulateDisconnect()
        // The recording ends by itself, the page is told why, and the file is whole.
        let status = try await Self.waitForStatus(base, cookie) { $0["recording"] == nil && $0["sessionError"] != nil }
        #expect(status["recording"] == nil, "\(status)")
        let sessionError = try #require(status["sessionError"] as? String, "\(status)")
        #expect(sessionError.contains("unplugged"), "\(sessionError)")
        #expect((status["lastError"] as? String)?.contains("unplugged") == true, "\(status)")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: server.recordingsFolder.path).first { $0.hasSuffix(".mov") })
        let movie = try RecordedMovie(server.recordingsFolder.appendingPathComponent(name), width: 320, height: 240)
        #expect(movie.frames.count >= 25 && movie.frames.allSatisfy { $0.index != nil }, "\(movie.frames.count) frames")
        // Nothing can be recorded until the camera is chosen again.
        #expect(try HTTPProbe.request("POST", base + "/api/recording/start", cookie: cookie).status == 409)
        // Plugged in again and chosen again: the session runs, the message goes, recording works.
        camera.simulateReconnect()
        let (chosen, answer) = try HTTPProbe.request("POST", base + "/api/session", cookie: cookie, body: "{\"camera\":\"serve-unplugged\"}")
        #expect(chosen == 200, "\(answer)")
        #expect(try Self.status(base, cookie)["sessionError"] == nil)
        #expect(try HTTPProbe.request("POST", base + "/api/recording/start", cookie: cookie).status == 200)
        _ = try await Self.waitForStatus(base, cookie) { ($0["recordedSeconds"] as? Double ?? 0) >= 0.5 }
        let (stopped, file) = try HTTPProbe.request("POST", base + "/api/recording/stop", cookie: cookie)
        #expect(stopped == 200, "\(file)")
        let movies = try FileManager.default.contentsOfDirectory(atPath: server.recordingsFolder.path).filter { $0.hasSuffix(".mov") }
        #expect(movies.count == 2)
        task.cancel()
        _ = await task.result
    }
}
