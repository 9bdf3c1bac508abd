import ArgumentParser
import Foundation
import OpenAVFoundation
import OpenAVServe

/// `openav serve`: a page to watch the camera and record from a browser, for machines without
/// a screen.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Watch the camera and record from a browser: for machines without a screen.",
        discussion: """
            Serves one page: the live picture (with sound and its level when a microphone is used), \
            device and format pickers, Record/Stop, Photo, and the recordings folder to download \
            from and delete in. Every request needs the token in the printed address (a cookie \
            keeps it after the first visit). Ctrl-C finishes a running recording and stops.
            """)

    @Option(help: "HOST:PORT to listen on (port 0: any free port). Loopback by default; on another address, anyone with the printed token can watch and record, over unencrypted HTTP.")
    var listen = "127.0.0.1:8080"

    @OptionGroup var camera: VideoCaptureOptions

    @Option(help: "The microphone: its unique ID or name, as `openav devices` lists them, or a sound file, which a File Microphone plays (default: the first microphone; 'none' for no sound).")
    var audio: String?

    @Option(help: "The folder recordings and photos go to, made when missing; the page reads and deletes files in it only.")
    var recordings = "recordings"

    func validate() throws {
        guard Self.address(listen) != nil else {
            throw ValidationError("--listen must be HOST:PORT, for example 127.0.0.1:8080 or 0.0.0.0:8080")
        }
    }

    func run() async throws {
        let (host, port) = Self.address(listen)!
        let session = AVCaptureSession()
        session.beginConfiguration()
        if camera.video != "none" { _ = try camera.addCamera(to: session) }
        if let microphone = try DeviceLookup.microphone(audio, hasVideo: !session.inputs.isEmpty) {
            do {
                session.addInput(try AVCaptureDeviceInput(device: microphone))
            } catch let error as AVError {
                throw CommandFailure("cannot use \(microphone.localizedName): \(error.failureText)")
            }
        }
        session.commitConfiguration()
        let server: CaptureServer
        do {
            server = try CaptureServer(session: session, recordingsFolder: URL(fileURLWithPath: recordings), host: host, port: port)
        } catch {
            throw CommandFailure("cannot serve: \(error.localizedDescription)")
        }
        let startError = StartErrorWatcher(session)
        let isLoopback = ["127.0.0.1", "localhost", "::1"].contains(host)
        do {
            try await server.run { url in
                var text = "Open \(url) in a browser (recordings go to \(server.recordingsFolder.path)).\n"
                if !isLoopback {
                    text += "Listening on \(host): anyone who has this address, token included, can watch and record; the link is not encrypted.\n"
                }
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        } catch let error as AVError where error.code == .sessionNotRunning {
            throw CommandFailure("the capture session did not start: \(startError.error?.failureText ?? "unknown error")")
        } catch let error as AVError {
            throw CommandFailure("the last recording failed: \(error.failureText)")
        } catch {
            throw CommandFailure("cannot serve on \(listen): \(error)")
        }
    }

    /// HOST and PORT of a `--listen` argument (an IPv6 host in brackets).
    static func address(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }
}
