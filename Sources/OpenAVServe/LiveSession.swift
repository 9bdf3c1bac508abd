import Foundation
import HostSystem
import Hummingbird
import OpenAVFoundation

/// The capture session behind the page, with its four outputs: the live picture and sound
/// (data outputs that drop late frames, with a delegate only while a browser watches),
/// recordings (`AVCaptureMovieFileOutput`, the path of `openav record`) and photos
/// (`AVCapturePhotoOutput`). The device is opened once; the browsers only add work to the data
/// outputs' queues, so the recording never waits for them.
///
/// Device changes, recording starts and photo captures are serialized by `configurationLock`
/// (taken first); the recording and photo state is behind `lock`; why the session stopped has
/// a lock of its own (`sessionError`), which the session's runtime error notification takes, so
/// that a session failing while it is configured blocks nothing. No lock is held while the outputs call back.
/// At most one recording runs at a time, and it runs until stopped, whoever is connected.
final class LiveSession: NSObject, AVCaptureFileOutputRecordingDelegate, AVCapturePhotoCaptureDelegate,
    @unchecked Sendable {
    /// How long a photo or the end of a recording is waited for.
    static let patience: TimeInterval = 10

    let session: AVCaptureSession
    let folder: RecordingsFolder
    private let broadcast = LiveBroadcast()
    private let movie = AVCaptureMovieFileOutput()
    private let photos = AVCapturePhotoOutput()
    private let pictures = AVCaptureVideoDataOutput()
    private let sound = AVCaptureAudioDataOutput()
    private let pictureQueue = DispatchQueue(label: "openav.serve.pictures")
    private let soundQueue = DispatchQueue(label: "openav.serve.sound")
    private let configurationLock = NSLock()
    /// Keeps a browser's arrival and the delegates it brings together.
    private let audienceLock = NSLock()
    private let lock = NSLock()
    private var recording: URL?
    private var recordingWaiters: [CheckedContinuation<PageAPI.File?, Never>] = []
    private var lastError: String?
    /// The last recording's error when it did not finish successfully (a full disk).
    private(set) var lastFailure: (any Error)?
    private var photoWaiters: [Int64: CheckedContinuation<Result<Data, any Error>, Never>] = [:]
    /// Why the session stopped delivering (a camera unplugged), until devices are chosen again.
    @Locked private var sessionError: String? = nil
    private var runtimeErrors: NSObjectProtocol?

    /// Adds the outputs to `session`, which has its inputs.
    init(session: AVCaptureSession, folder: RecordingsFolder) throws {
        self.session = session
        self.folder = folder
        super.init()
        runtimeErrors = NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: session,
                                                               queue: nil) { [weak self] notification in
            let error = notification.userInfo?[AVCaptureSessionErrorKey] as? AVError
            self?.sessionError = error.map(Self.describe) ?? "the capture session failed"
        }
        pictures.alwaysDiscardsLateVideoFrames = true
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        for output in [movie, photos, pictures, sound] as [AVCaptureOutput] {
            guard session.canAddOutput(output) else {
                throw AVError(.unknown, userInfo: [NSLocalizedDescriptionKey: "the session takes no \(type(of: output))"])
            }
            session.addOutput(output)
        }
    }

    deinit {
        runtimeErrors.map(NotificationCenter.default.removeObserver)
    }

    // MARK: Browsers

    /// A browser starts watching: the data outputs get their delegate with the first one.
    func join(_ client: LiveClient) {
        audienceLock.withLock {
            guard broadcast.add(client) == 1 else { return }
            pictures.setSampleBufferDelegate(broadcast, queue: pictureQueue)
            sound.setSampleBufferDelegate(broadcast, queue: soundQueue)
        }
    }

    /// A browser goes: the data outputs lose their delegate with the last one, so that nothing
    /// is decoded or encoded for nobody.
    func leave(_ client: LiveClient) {
        audienceLock.withLock {
            guard broadcast.remove(client) == 0 else { return }
            pictures.setSampleBufferDelegate(nil, queue: nil)
            sound.setSampleBufferDelegate(nil, queue: nil)
        }
    }

    // MARK: Devices

    /// The devices discovery finds and the session's current choice.
    func devices() -> PageAPI.Devices {
        let camera = device(for: .video), microphone = device(for: .audio)
        return PageAPI.Devices(
            cameras: Self.discover(.video).map { device in
                PageAPI.Devices.Device(id: device.uniqueID, name: device.localizedName, formats: device.formats.enumerated().map { index, format in
                    let size = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
                    return PageAPI.Devices.Format(index: index, width: size.width, height: size.height,
                                                  codec: Self.fourCharacters(CMFormatDescriptionGetMediaSubType(format.formatDescription)),
                                                  maxFrameRate: format.videoSupportedFrameRateRanges.map(\.maxFrameRate).max() ?? 0)
                })
            },
            microphones: Self.discover(.audio).map { PageAPI.Devices.Device(id: $0.uniqueID, name: $0.localizedName, formats: []) },
            camera: camera?.uniqueID,
            format: camera.flatMap { camera in camera.formats.firstIndex { $0 === camera.activeFormat } },
            microphone: microphone?.uniqueID)
    }

    /// Switches the session to another camera, format or microphone and (re)starts it: refused
    /// while recording; on failure the previous inputs are put back. 409 when the session does
    /// not run afterwards, with the reason.
    func configure(_ choice: PageAPI.SessionChoice) throws {
        try configurationLock.withLock {
            if let recording = currentRecording {
                throw HTTPError(.conflict, message: "stop the recording before changing devices (\(recording) is being recorded)")
            }
            let camera = try choice.camera.map { try Self.find($0, among: Self.discover(.video)) }
            let microphone = try choice.microphone.map { try Self.find($0, among: Self.discover(.audio)) }
            let previous = session.inputs
            sessionError = nil
            session.beginConfiguration()
            do {
                previous.forEach(session.removeInput)
                for device in [camera, microphone].compactMap({ $0 }) {
                    let input = try AVCaptureDeviceInput(device: device)
                    guard session.canAddInput(input) else {
                        throw HTTPError(.conflict, message: "the session cannot use \(device.localizedName)")
                    }
                    session.addInput(input)
                }
                if let camera, let index = choice.format {
                    guard camera.formats.indices.contains(index) else {
                        throw HTTPError(.badRequest, message: "\(camera.localizedName) has no format \(index)")
                    }
                    try camera.lockForConfiguration()
                    camera.activeFormat = camera.formats[index]
                    camera.unlockForConfiguration()
                }
                session.commitConfiguration()
            } catch {
                session.inputs.forEach(session.removeInput)
                previous.forEach(session.addInput)
                session.commitConfiguration()
                if let error = error as? AVError {
                    throw HTTPError(.conflict, message: "cannot use the device: \(Self.describe(error))")
                }
                throw error
            }
            if !session.isRunning { session.startRunning() }
            guard session.isRunning else {
                throw HTTPError(.conflict, message: "the capture session did not start: \(sessionError ?? "unknown error")")
            }
        }
    }

    private func device(for mediaType: AVMediaType) -> AVCaptureDevice? {
        session.inputs.compactMap { ($0 as? AVCaptureDeviceInput)?.device }.first { $0.hasMediaType(mediaType) }
    }

    private static func discover(_ mediaType: AVMediaType) -> [AVCaptureDevice] {
        let types: [AVCaptureDevice.DeviceType] = mediaType == .video ? [.builtInWideAngleCamera, .external] : [.microphone, .external]
        return AVCaptureDevice.DiscoverySession(deviceTypes: types, mediaType: mediaType, position: .unspecified).devices
    }

    private static func find(_ id: String, among devices: [AVCaptureDevice]) throws -> AVCaptureDevice {
        guard let device = devices.first(where: { $0.uniqueID == id }) else {
            throw HTTPError(.badRequest, message: "no device \(id)")
        }
        return device
    }

    private static func fourCharacters(_ code: FourCharCode) -> String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }, as: UTF8.self)
    }

    // MARK: Recording

    /// What the page shows of the session.
    func status() -> PageAPI.Status {
        let sessionError = self.sessionError
        return lock.withLock {
            PageAPI.Status(recording: recording?.lastPathComponent, recordedSeconds: recording == nil ? 0 : movie.recordedDuration.seconds,
                           droppedFrames: movie.droppedFrameCount, audience: broadcast.audience, lastError: lastError,
                           sessionError: sessionError)
        }
    }

    /// The file being recorded, if any.
    var currentRecording: String? { lock.withLock { recording?.lastPathComponent } }

    /// Starts recording into a new file of the folder (H.264 and AAC in a QuickTime movie; a
    /// camera's own H.264 as it comes); 409 while another recording runs or while the session
    /// does not run.
    func startRecording() throws -> PageAPI.File {
        try configurationLock.withLock {
            guard session.isRunning else {
                throw HTTPError(.conflict, message: "the capture session is not running: \(sessionError ?? "choose the devices")")
            }
            let url = try lock.withLock { () throws -> URL in
                if let recording { throw HTTPError(.conflict, message: "a recording is already running: \(recording.lastPathComponent)") }
                guard !session.inputs.isEmpty else { throw HTTPError(.conflict, message: "nothing to record: no camera and no microphone") }
                if let video = movie.connection(with: .video), let camera = device(for: .video) {
                    let sendsH264 = CMFormatDescriptionGetMediaSubType(camera.activeFormat.formatDescription) == kCMVideoCodecType_H264
                    movie.setOutputSettings(sendsH264 ? [:] : [AVVideoCodecKey: AVVideoCodecType.h264], for: video)
                }
                let url = folder.newFile(prefix: "recording", pathExtension: "mov")
                recording = url
                lastError = nil
                lastFailure = nil
                return url
            }
            movie.startRecording(to: url, recordingDelegate: self)
            return PageAPI.File(name: url.lastPathComponent)
        }
    }

    /// Stops the recording and returns once its file is complete; 409 when none runs, 503 when
    /// it has not finished within `patience` (a session that delivers nothing any more).
    func stopRecording() async throws -> PageAPI.File {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<PageAPI.File?, Never>) in
            let running = lock.withLock { () -> Bool in
                guard recording != nil else { return false }
                recordingWaiters.append(continuation)
                return true
            }
            guard running else { return continuation.resume(returning: nil) }
            movie.stopRecording()
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.patience) { [weak self] in
                guard let self else { return }
                let late = lock.withLock { () -> [CheckedContinuation<PageAPI.File?, Never>] in
                    defer { recordingWaiters = [] }
                    return recordingWaiters
                }
                late.forEach { $0.resume(returning: PageAPI.File(name: "", error: "the recording did not finish in time")) }
            }
        }
        guard let file = outcome else { throw HTTPError(.conflict, message: "no recording is running") }
        if file.name.isEmpty { throw HTTPError(.serviceUnavailable, message: file.error ?? "") }
        return file
    }

    func fileOutput(_ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL,
                    from connections: [AVCaptureConnection], error: (any Error)?) {
        // Why it stopped when nobody asked: the file is complete when the error says the
        // recording successfully finished (as after an unplugged camera), else `lastFailure`.
        let failure = error.map(Self.describe)
        let finished = error.map { ($0 as NSError).userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true } ?? true
        let waiters = lock.withLock { () -> [CheckedContinuation<PageAPI.File?, Never>] in
            recording = nil
            lastError = failure
            lastFailure = finished ? nil : error
            defer { recordingWaiters = [] }
            return recordingWaiters
        }
        let file = PageAPI.File(name: outputFileURL.lastPathComponent, seconds: output.recordedDuration.seconds, error: failure)
        waiters.forEach { $0.resume(returning: file) }
    }

    /// An error as the page shows it: its description and, when it has one, its reason.
    static func describe(_ error: any Error) -> String {
        let error = error as NSError
        return error.localizedFailureReason.map { "\(error.localizedDescription): \($0)" } ?? error.localizedDescription
    }

    // MARK: Photos

    /// Takes a JPEG photo into a new file of the folder: 409 without a running camera, 503
    /// when no picture came within `patience`.
    func takePhoto() async throws -> PageAPI.File {
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        let id = settings.uniqueID
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Data, any Error>, Never>) in
            let refusal = configurationLock.withLock { () -> HTTPError? in
                guard photos.connection(with: .video) != nil, session.isRunning else {
                    return HTTPError(.conflict, message: "no running camera to take a photo with")
                }
                lock.withLock { photoWaiters[id] = continuation }
                photos.capturePhoto(with: settings, delegate: self)
                return nil
            }
            if let refusal { return continuation.resume(returning: .failure(refusal)) }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.patience) { [weak self] in
                guard let self else { return }
                lock.withLock { photoWaiters.removeValue(forKey: id) }?
                    .resume(returning: .failure(HTTPError(.serviceUnavailable, message: "the camera gave no picture in time")))
            }
        }
        do {
            let url = try folder.create(prefix: "photo", pathExtension: "jpg", contents: try result.get())
            return PageAPI.File(name: url.lastPathComponent)
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError(.conflict, message: "the photo could not be taken: \(Self.describe(error))")
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        let result: Result<Data, any Error>
        if let data = photo.fileDataRepresentation() {
            result = .success(data)
        } else {
            result = .failure(error ?? AVError(.unknown))
        }
        lock.withLock { photoWaiters.removeValue(forKey: photo.resolvedSettings.uniqueID) }?.resume(returning: result)
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                     error: (any Error)?) {
        // A capture that failed before any photo was processed.
        lock.withLock { photoWaiters.removeValue(forKey: resolvedSettings.uniqueID) }?
            .resume(returning: .failure(error ?? AVError(.unknown)))
    }
}
