import CaptureDevices
import Dispatch
import Foundation
import HostSystem
import Logging
import MediaEngine
import OpenCoreMedia
import OpenCoreVideo

/// A capture output that finds barcodes and faces in a camera's frames and hands them to a
/// delegate as `AVMetadataMachineReadableCodeObject`s and `AVMetadataFaceObject`s.
///
/// Linux: codes are read by zxing-cpp and ZBar, faces found by dlib's frontal face detector, on
/// a thread of the output's own below a recording's encoding in priority, from the newest frame
/// only: while a frame is being read, newer frames replace the one waiting, so the camera and
/// the session's other outputs are never held up (a slow machine reads fewer frames, never later
/// ones), and a movie recorded beside it keeps every frame. A frame is read where it lies (the
/// luma of a 4:2:0 picture, or BGRA), within `rectOfInterest`. Each object carries its frame's
/// presentation time and duration; its corners and bounds are in metadata output coordinates (0
/// to 1 across and down the camera's unturned picture, as on Apple platforms, whatever the
/// connection's orientation). The delegate hears of frames in which something was found.
/// Differs from Apple: MicroPDF417 and GS1 DataBar Limited are not read, faces have no angles,
/// and `descriptor` is absent (no Core Image).
public final class AVCaptureMetadataOutput: AVCaptureOutput, @unchecked Sendable {
    /// A frame waiting to be read.
    private struct Pending {
        let picture: CVPixelBuffer
        let time: CMTime
        let duration: CMTime
        let connection: AVCaptureConnection
    }

    private struct State {
        weak var delegate: (any AVCaptureMetadataOutputObjectsDelegate)?
        var queue: DispatchQueue?
        /// A synchronizer's receiver, told of every frame read instead of the delegate while set.
        var synchronizer: SynchronizedOutputsReceiver?
        var types: [AVMetadataObject.ObjectType] = []
        var rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
        /// Counts session stops: what was read before one is not delivered after it.
        var generation = 0
    }

    private let state = Locked(State())
    /// Where frames are read, the newest one at a time (set once, by `init`).
    private var reading: NewestItemThread<Pending>!
    /// Used on the reading thread only: the face detector (made when faces are first looked
    /// for; nil until then, or when dlib cannot make one) and the faces' IDs, with the session
    /// run they belong to.
    private var faceFinder: Result<FaceFinder, EngineError>?
    private var faceIdentities = (FaceIdentities(), generation: 0)
    /// Used on the reading thread only: pictures of other formats made 4:2:0 to be read.
    private let converter = PixelConverter()
    private let pools = PixelBufferPools(capacity: 2)
    private let logger = Logger(label: "OpenAVFoundation.AVCaptureMetadataOutput")

    /// An output that looks for nothing until `metadataObjectTypes` is set.
    public override init() {
        super.init()
        reading = NewestItemThread(name: "OpenAVFoundation.AVCaptureMetadataOutput") { [weak self] in self?.readAndDeliver($0) }
    }

    deinit {
        reading.stop()
    }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video }

    /// The delegate that receives the objects found.
    public var metadataObjectsDelegate: (any AVCaptureMetadataOutputObjectsDelegate)? { state.withLock { $0.delegate } }

    /// The queue the delegate is called on.
    public var metadataObjectsCallbackQueue: DispatchQueue? { state.withLock { $0.queue } }

    /// Sets the delegate and the queue it is called on; a delegate without a queue is a
    /// programmer error.
    public func setMetadataObjectsDelegate(_ objectsDelegate: (any AVCaptureMetadataOutputObjectsDelegate)?,
                                           queue objectsCallbackQueue: DispatchQueue?) {
        Misuse.check(objectsDelegate == nil || objectsCallbackQueue != nil, .metadataDelegateWithoutQueue)
        state.withLock {
            $0.delegate = objectsDelegate
            $0.queue = objectsDelegate == nil ? nil : objectsCallbackQueue
        }
    }

    /// The types the output can look for: faces and the barcode types, once it is connected to
    /// a camera in a session; none before.
    public var availableMetadataObjectTypes: [AVMetadataObject.ObjectType] {
        connection(with: .video) == nil ? [] : [.face] + MetadataCodeTypes.available
    }

    /// The types looked for (none by default). Setting one that `availableMetadataObjectTypes`
    /// does not list is a programmer error.
    public var metadataObjectTypes: [AVMetadataObject.ObjectType]! {
        get { state.withLock { $0.types } }
        set {
            let types = newValue ?? []
            let available = Set(availableMetadataObjectTypes)
            for type in types { Misuse.check(available.contains(type), .metadataObjectTypeNotAvailable(type.rawValue)) }
            state.withLock { $0.types = types }
        }
    }

    /// Where in the picture codes are looked for, in metadata output coordinates; codes
    /// outside it are not reported. The whole picture, `(0, 0, 1, 1)`, by default.
    public var rectOfInterest: CGRect {
        get { state.withLock { $0.rectOfInterest } }
        set { state.withLock { $0.rectOfInterest = newValue.standardized } }
    }

    // MARK: Reading

    override func receive(_ sample: CaptureSample, from connection: AVCaptureConnection) {
        guard let picture = sample.pixelBuffer, state.withLock({ ($0.delegate != nil || $0.synchronizer != nil) && !$0.types.isEmpty }) else { return }
        reading.handOver(Pending(picture: picture, time: sample.presentationTime, duration: sample.duration, connection: connection))
    }

    /// Reads a frame and hands what it holds to the delegate (unless the session stopped meanwhile).
    private func readAndDeliver(_ frame: Pending) {
        let (types, region, generation) = state.withLock { (Set($0.types), $0.rectOfInterest, $0.generation) }
        // Converted once for both readers (faces are read from 4:2:0 only).
        let picture: CVPixelBuffer
        do throws(EngineError) {
            picture = try readable(frame.picture, bgra: !types.contains(.face))
        } catch {
            logger.error("cannot read a frame: \(error)")
            return
        }
        var objects = read(picture, of: frame, types: types, region: region)
        if types.contains(.face) { objects += faces(in: picture, of: frame, region: region, generation: generation) }
        state.withLock { s in
            guard s.generation == generation else { return }
            if let receiver = s.synchronizer {
                // Every frame read, also without objects: the synchronizer learns how far it got.
                nonisolated(unsafe) let found = objects
                receiver.queue.async { receiver.metadataOutput(self, didRead: found, at: frame.time, duration: frame.duration) }
                return
            }
            guard !objects.isEmpty, let listener = s.delegate, let queue = s.queue else { return }
            // Handed to the delegate's queue, not touched here again.
            nonisolated(unsafe) let (found, delegate) = (objects, listener)
            queue.async { delegate.metadataOutput(self, didOutput: found, from: frame.connection) }
        }
    }

    /// The codes of `types` in `picture` (the frame's, as the readers take it) within `region`
    /// (metadata output coordinates).
    private func read(_ picture: CVPixelBuffer, of frame: Pending, types: Set<AVMetadataObject.ObjectType>,
                      region: CGRect) -> [AVMetadataObject] {
        let width = CVPixelBufferGetWidth(picture), height = CVPixelBufferGetHeight(picture)
        guard width > 0, height > 0 else { return [] }
        let reader = CodeReader(formats: MetadataCodeTypes.formats(for: types))
        let pixels = CGRect(x: region.minX * Double(width), y: region.minY * Double(height),
                            width: region.width * Double(width), height: region.height * Double(height))
        do throws(EngineError) {
            let codes = try reader.read(picture, in: pixels)
            return codes.compactMap { code in
                guard let (type, text) = MetadataCodeTypes.type(of: code, among: types) else { return nil }
                let corners = code.corners.map { CGPoint(x: $0.x / Double(width), y: $0.y / Double(height)) }
                return AVMetadataMachineReadableCodeObject(type: type, time: frame.time, duration: frame.duration,
                                                           corners: corners, stringValue: text,
                                                           input: frame.connection.inputPorts.first?.input)
            }
        } catch {
            logger.error("cannot read codes in a frame: \(error)")
            return []
        }
    }

    /// The faces in `picture` (the frame's, 4:2:0) whose bounds meet `region` (metadata output
    /// coordinates), with their IDs.
    private func faces(in picture: CVPixelBuffer, of frame: Pending, region: CGRect, generation: Int) -> [AVMetadataObject] {
        let width = Double(CVPixelBufferGetWidth(picture)), height = Double(CVPixelBufferGetHeight(picture))
        if faceFinder == nil {
            faceFinder = Result { () throws(EngineError) in try FaceFinder() }
            if case .failure(let error) = faceFinder { logger.error("cannot look for faces: \(error)") }
        }
        guard width > 0, height > 0, case .success(let finder) = faceFinder else { return [] }
        do throws(EngineError) {
            let bounds = try finder.find(in: picture).map { face in
                CGRect(x: face.bounds.minX / width, y: face.bounds.minY / height,
                       width: face.bounds.width / width, height: face.bounds.height / height)
            }.filter { $0.intersects(region) }
            if faceIdentities.generation != generation { faceIdentities = (FaceIdentities(), generation) }
            let ids = faceIdentities.0.identify(bounds)
            return zip(ids, bounds).map { id, bounds in
                AVMetadataFaceObject(faceID: id, time: frame.time, duration: frame.duration, bounds: bounds,
                                     input: frame.connection.inputPorts.first?.input)
            }
        } catch {
            logger.error("cannot look for faces in a frame: \(error)")
            return []
        }
    }

    /// The picture as the readers take it: as it is when 4:2:0 biplanar (or BGRA, when `bgra`),
    /// else converted to 4:2:0.
    private func readable(_ picture: CVPixelBuffer, bgra: Bool) throws(EngineError) -> CVPixelBuffer {
        let format = CVPixelBufferGetPixelFormatType(picture)
        if [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange].contains(format)
            || (bgra && format == kCVPixelFormatType_32BGRA) { return picture }
        guard let converted = pools.buffer(pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
                                           width: CVPixelBufferGetWidth(picture), height: CVPixelBufferGetHeight(picture)) else {
            throw EngineError(operation: "reading codes", message: "cannot allocate a picture to read")
        }
        try converter.convert(picture, into: converted)
        return converted
    }

    override func synchronize(with receiver: SynchronizedOutputsReceiver?) {
        state.withLock { $0.synchronizer = receiver }
    }

    override func sessionDidStopRunning() {
        reading.stop()
        state.withLock { $0.generation += 1 }
    }
}
