import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import OpenAVFoundation
import ServiceLifecycle

/// A web page that shows a capture session's picture and sound in a browser, with its
/// microphone's level, device and format pickers, recordings started and stopped from the page
/// (through `AVCaptureMovieFileOutput`), photos, and the recordings folder to download from and
/// delete in: `openav serve`, for machines nobody sits in front of. Apple has no counterpart.
///
/// The picture reaches browsers as JPEG pictures over a WebSocket, one encoding shared by all
/// of them: outputs added to the given session, never a second open of the device. A browser
/// that falls behind gets fewer pictures; the recording is not affected.
///
/// Every request needs ``token``: the address printed by the command carries it, and the first
/// visit leaves it in a cookie. The server listens on loopback unless told otherwise.
public final class CaptureServer: Sendable {
    /// The secret every request must carry (32 hexadecimal digits).
    public let token: String
    /// The folder recordings and photos go to, and the only one the page reads or deletes in.
    public let recordingsFolder: URL
    private let host: String
    private let port: Int
    private let live: LiveSession
    private let page: PageAssets

    /// A server for `session` (which has its inputs) on `host`:`port` (0 for any free port),
    /// recording into `recordingsFolder` (made when missing).
    public init(session: AVCaptureSession, recordingsFolder: URL, host: String = "127.0.0.1", port: Int = 8080) throws {
        let folder = try RecordingsFolder(recordingsFolder)
        self.recordingsFolder = folder.url
        self.host = host
        self.port = port
        token = AccessToken<BasicWebSocketRequestContext>.random()
        live = try LiveSession(session: session, folder: folder)
        page = try PageAssets()
    }

    /// Starts the session and serves the page until the task is cancelled or the process gets
    /// SIGINT or SIGTERM; then a running recording is finished (before any connection is
    /// closed, so that no browser can hold it up), the server stops and the session stops.
    /// `onListening` gets the page's address, token included, once the server listens.
    ///
    /// Throws `AVError.sessionNotRunning` when the session does not start (the session's runtime
    /// error notification says why), the server's error when it cannot listen, and the last
    /// recording's error when it did not finish successfully (a full disk).
    public func run(onListening: @escaping @Sendable (URL) -> Void = { _ in }) async throws {
        let session = live.session
        try await blocking { session.startRunning() }
        guard session.isRunning else { throw AVError(.sessionNotRunning) }
        do {
            try await serve(onListening: onListening)
        } catch {
            _ = try? await blocking { session.stopRunning() }
            throw error
        }
        try await blocking { session.stopRunning() }
        if let failure = live.lastFailure { throw failure }
    }

    /// Serves the page until a signal or cancellation; the recording under way is finished first.
    private func serve(onListening: @escaping @Sendable (URL) -> Void) async throws {
        var logger = Logger(label: "openav.serve")
        logger.logLevel = .warning
        let token = AccessToken<BasicWebSocketRequestContext>(value: token)
        let router = makeRouter(token)
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(router: router, token: token),
            configuration: .init(address: .hostname(host, port: port), serverName: "openav serve"),
            onServerRunning: { [host, token = self.token] channel in
                let port = channel.localAddress?.port ?? 0
                let address = host.contains(":") ? "[\(host)]" : host
                onListening(URL(string: "http://\(address):\(port)/?token=\(token)")!)
            },
            logger: logger)
        // The signals are taken here, not by the server, so that the recording finishes first;
        // then the server shuts down gracefully (browsers are told to close), and is cancelled
        // if a browser keeps a connection open for more than 3 s.
        let (stopRequests, stop) = AsyncStream<Void>.makeStream()
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.yield() }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        let services = ServiceGroup(configuration: .init(services: [.init(service: app)], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            group.addTask {
                // A signal, or the task cancelled (the stream ends).
                for await _ in stopRequests { break }
                _ = try? await self.live.stopRecording()
                await services.triggerGracefulShutdown()
                try? await Task.sleep(for: .seconds(3))
            }
            defer { group.cancelAll() }
            try await group.next()
        }
        stop.finish()
        // Cancelled from outside, the server may have ended first.
        if live.currentRecording != nil { _ = try? await live.stopRecording() }
    }

    private func makeRouter(_ token: AccessToken<BasicWebSocketRequestContext>) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: token)
        let live = live, page = page
        for (path, asset) in page.assets {
            router.get(RouterPath(path)) { _, _ in asset.response }
        }
        router.get("/api/devices") { _, _ in try await blocking { live.devices() } }
        router.post("/api/session") { request, context in
            guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
                throw HTTPError(.unsupportedMediaType, message: "the devices are chosen in JSON")
            }
            let choice = try await request.decode(as: PageAPI.SessionChoice.self, context: context)
            return try await blocking {
                try live.configure(choice)
                return live.devices()
            }
        }
        router.get("/api/status") { _, _ in live.status() }
        router.post("/api/recording/start") { _, _ in try await blocking { try live.startRecording() } }
        router.post("/api/recording/stop") { _, _ in try await live.stopRecording() }
        router.post("/api/photo") { _, _ in try await live.takePhoto() }
        router.get("/api/recordings") { _, _ in await Self.recordings(live) }
        router.get("/recordings/:name") { _, context in try Self.download(context.parameters.require("name"), from: live) }
        router.delete("/recordings/:name") { _, context in
            let name = try context.parameters.require("name")
            guard live.currentRecording != name else { throw HTTPError(.conflict, message: "\(name) is being recorded") }
            try live.folder.remove(named: name)
            return Response(status: .noContent)
        }
        router.ws("/live") { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, _ in
            let client = LiveClient()
            live.join(client)
            defer { live.leave(client) }
            await withTaskCancellationHandler {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // The browser sends nothing; its side ends when it goes.
                        do { for try await _ in inbound {} } catch {}
                    }
                    group.addTask {
                        while let messages = await client.next() {
                            do {
                                for message in messages {
                                    switch message {
                                    case .binary(let bytes): try await outbound.write(.binary(bytes))
                                    case .text(let text): try await outbound.write(.text(text))
                                    }
                                }
                            } catch {
                                return
                            }
                        }
                    }
                    // Either side ending ends both.
                    await group.next()
                    client.close()
                    group.cancelAll()
                }
            } onCancel: {
                client.close()
            }
        }
        return router
    }

    /// The folder's files with their durations (read by `AVURLAsset`).
    private static func recordings(_ live: LiveSession) async -> PageAPI.Recordings {
        let current = live.currentRecording
        var items: [PageAPI.Recordings.Item] = []
        for entry in live.folder.entries() {
            var duration: Double?
            if entry.name != current, !entry.name.hasSuffix(".jpg") {
                let asset = AVURLAsset(url: live.folder.url.appendingPathComponent(entry.name))
                duration = (try? await asset.load(.duration)).flatMap { $0.isNumeric ? $0.seconds : nil }
            }
            items.append(.init(name: entry.name, size: entry.size, duration: duration, recording: entry.name == current))
        }
        return PageAPI.Recordings(recordings: items)
    }

    /// A file of the folder as a download, read in pieces (409 for the one being recorded).
    private static func download(_ name: String, from live: LiveSession) throws -> Response {
        guard live.currentRecording != name else { throw HTTPError(.conflict, message: "\(name) is being recorded") }
        let (handle, size) = try live.folder.open(named: name)
        let body = ResponseBody(contentLength: Int(size)) { writer in
            defer { try? handle.close() }
            // No more than the length announced, should the file have grown since.
            var left = Int(size)
            while left > 0, let chunk = try handle.read(upToCount: min(left, 1 << 16)), !chunk.isEmpty {
                left -= chunk.count
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [
            .contentType: PageAssets.contentType(ofFileNamed: name),
            .contentDisposition: "attachment; filename=\"\(name)\"",
        ], body: body)
    }
}
