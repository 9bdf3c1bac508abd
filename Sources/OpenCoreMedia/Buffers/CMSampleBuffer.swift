import Foundation
import OpenCoreVideo
import Synchronization

/// Called to load a sample buffer's data when it was created not ready; returns `noErr` on success.
///
/// Differs from Apple: a Swift closure type rather than a C function pointer (a C function cannot
/// take a Swift class), so closures that capture context are allowed.
public typealias CMSampleBufferMakeDataReadyCallback = (CMSampleBuffer, UnsafeMutableRawPointer?) -> OSStatus

/// Zero or more media samples of one format with their timing, sizes and attachments; the data is
/// either a `CMBlockBuffer` (compressed or audio samples) or a `CVImageBuffer` (one video frame).
///
/// Differs from Apple: a Swift class rather than a CoreFoundation type; after invalidation the
/// getters keep answering (only `isValid` changes), and there is no invalidation callback.
/// Instances may be used from several threads; mutable state (readiness, validity, attachments,
/// output time) is behind a lock.
public final class CMSampleBuffer: @unchecked Sendable {
    /// Guards the mutable state. A `Mutex` lives inside the object (an `NSLock` is an object of
    /// its own with a separately allocated `pthread_mutex_t`): one sample buffer is made per
    /// packet read or written.
    private let lock = Mutex(())

    let numSamplesStored: CMItemCount
    let timingEntries: [CMSampleTimingInfo]
    let sizeEntries: [Int]
    let formatDescriptionStored: CMFormatDescription?
    let imageBufferStored: CVImageBuffer?

    private var dataBufferStored: CMBlockBuffer?
    private var dataReadyStored: Bool
    private var dataFailedStatus: OSStatus?
    private var makeDataReadyCallback: CMSampleBufferMakeDataReadyCallback?
    private let makeDataReadyRefcon: UnsafeMutableRawPointer?
    private var invalidated = false
    private var outputPresentationTimeStampOverride: CMTime?
    private var attachmentStoreStored: CMAttachmentStore?
    private var sampleAttachmentDictionaries: [NSMutableDictionary]?
    /// Set by `markAllSamplesNotSync()`: every sample carries `kCMSampleAttachmentKey_NotSync`,
    /// which goes into the attachment dictionaries when they are made.
    private var allSamplesNotSync = false

    init(dataBuffer: CMBlockBuffer?, imageBuffer: CVImageBuffer?, dataReady: Bool,
         makeDataReadyCallback: CMSampleBufferMakeDataReadyCallback?, refcon: UnsafeMutableRawPointer?,
         formatDescription: CMFormatDescription?, numSamples: CMItemCount,
         timing: [CMSampleTimingInfo], sizes: [Int]) {
        dataBufferStored = dataBuffer
        imageBufferStored = imageBuffer
        dataReadyStored = dataReady
        self.makeDataReadyCallback = makeDataReadyCallback
        makeDataReadyRefcon = refcon
        formatDescriptionStored = formatDescription
        numSamplesStored = numSamples
        timingEntries = timing
        sizeEntries = sizes
    }

    /// Takes over what `made` holds (a buffer just made by a C-style function, so that a Swift
    /// initializer can return it as itself): data, format, timing, sizes, readiness and, for a
    /// copy, its attachments.
    convenience init(adopting made: CMSampleBuffer) {
        let (dataBuffer, dataReady, callback) = made.lock.withLock { _ in
            (made.dataBufferStored, made.dataReadyStored, made.makeDataReadyCallback)
        }
        self.init(dataBuffer: dataBuffer, imageBuffer: made.imageBufferStored, dataReady: dataReady,
                  makeDataReadyCallback: callback, refcon: made.makeDataReadyRefcon,
                  formatDescription: made.formatDescriptionStored, numSamples: made.numSamplesStored,
                  timing: made.timingEntries, sizes: made.sizeEntries)
        CMPropagateAttachments(made, destination: self)
        copySampleAttachments(from: made)
    }

    // MARK: Locked state

    /// The buffer's attachments (`CMSetAttachment`, …), made on first use: most sample buffers
    /// never carry one, and a store with its lock per sample is a cost on every packet read.
    var attachmentStore: CMAttachmentStore {
        lock.withLock { _ in
            if let store = attachmentStoreStored { return store }
            let store = CMAttachmentStore()
            attachmentStoreStored = store
            return store
        }
    }

    var dataBufferValue: CMBlockBuffer? { lock.withLock { _ in dataBufferStored } }

    func setDataBuffer(_ buffer: CMBlockBuffer) -> OSStatus {
        lock.withLock { _ in
            guard dataBufferStored == nil else { return kCMSampleBufferError_AlreadyHasDataBuffer }
            dataBufferStored = buffer
            return noErr
        }
    }

    var isValidValue: Bool { lock.withLock { _ in !invalidated } }

    func invalidateValue() -> OSStatus {
        lock.withLock { _ in
            guard !invalidated else { return kCMSampleBufferError_Invalidated }
            invalidated = true
            return noErr
        }
    }

    var dataReadinessValue: DataReadiness {
        lock.withLock { _ in
            if let failed = dataFailedStatus { return .failed(failed) }
            return dataReadyStored ? .ready : .notReady
        }
    }

    /// Marks the data ready; posts `CMSampleBuffer.dataBecameReady` when it was not.
    func markDataReady() -> OSStatus {
        let became = lock.withLock { _ in
            defer { dataReadyStored = true; dataFailedStatus = nil }
            return !dataReadyStored
        }
        if became { NotificationCenter.default.post(name: CMSampleBuffer.dataBecameReady, object: self) }
        return noErr
    }

    /// Records that loading the data failed; posts `CMSampleBuffer.dataFailed` with the status.
    func markDataFailed(_ status: OSStatus) -> OSStatus {
        lock.withLock { _ in dataFailedStatus = status }
        NotificationCenter.default.post(name: CMSampleBuffer.dataFailed, object: self,
                                        userInfo: [kCMSampleBufferNotificationKey_Status: NSNumber(value: status)])
        return noErr
    }

    /// Runs the make-data-ready callback if the data is not ready yet.
    func makeDataReadyValue() -> OSStatus {
        let callback: CMSampleBufferMakeDataReadyCallback? = lock.withLock { _ in
            dataReadyStored ? nil : makeDataReadyCallback
        }
        if dataReadinessValue == .ready { return noErr }
        if case .failed = dataReadinessValue { return kCMSampleBufferError_DataFailed }
        guard let callback else { return kCMSampleBufferError_BufferNotReady }
        let status = callback(self, makeDataReadyRefcon)
        guard status == noErr else { return status }
        return markDataReady()
    }

    var outputPresentationTimeStampValue: CMTime? {
        get { lock.withLock { _ in outputPresentationTimeStampOverride } }
        set { lock.withLock { _ in outputPresentationTimeStampOverride = newValue } }
    }

    /// The per-sample attachment dictionaries; created empty when asked to (or when the samples
    /// were marked not sync, holding that key).
    func sampleAttachmentDictionaries(create: Bool) -> [NSMutableDictionary]? {
        lock.withLock { _ in
            if sampleAttachmentDictionaries == nil && (create || allSamplesNotSync) {
                let notSync = allSamplesNotSync
                sampleAttachmentDictionaries = (0..<numSamplesStored).map { _ in
                    let dictionary = NSMutableDictionary()
                    if notSync {
                        dictionary.setObject(NSNumber(value: true), forKey: NSString(string: kCMSampleAttachmentKey_NotSync))
                    }
                    return dictionary
                }
            }
            return sampleAttachmentDictionaries
        }
    }

    func copySampleAttachments(from other: CMSampleBuffer) {
        let (source, notSync) = other.lock.withLock { _ in (other.sampleAttachmentDictionaries, other.allSamplesNotSync) }
        let copies = source?.map { $0.mutableCopy() as! NSMutableDictionary }
        lock.withLock { _ in
            sampleAttachmentDictionaries = copies
            allSamplesNotSync = notSync
        }
    }

    /// Marks every sample not sync, as `kCMSampleAttachmentKey_NotSync` = true in each sample's
    /// attachments would, without making the attachment dictionaries: they are made, holding
    /// the key, when first asked for. Package access: the engine marks the compressed samples
    /// it makes from packets that are not key frames (a per-sample `NSMutableDictionary` costs
    /// more than the rest of passing a packet through).
    package func markAllSamplesNotSync() {
        lock.withLock { _ in allSamplesNotSync = true }
    }

    /// Whether sample `index` is a sync sample: it carries no `kCMSampleAttachmentKey_NotSync`
    /// (or carries false). Reads the mark of `markAllSamplesNotSync()` without making the
    /// attachment dictionaries. Package access, for the muxer's key-frame flags.
    package func isSyncSample(at index: Int) -> Bool {
        !((sampleAttachment(kCMSampleAttachmentKey_NotSync, at: index) as? Bool) ?? false)
    }

    /// Sample `index`'s attachment `key`, or nil, read without making the attachment dictionaries
    /// (the mark of `markAllSamplesNotSync()` answers for `kCMSampleAttachmentKey_NotSync`).
    /// Package access, for readers of one attachment on a path that runs for every sample.
    package func sampleAttachment(_ key: CFString, at index: Int) -> Any? {
        lock.withLock { _ in
            guard let dictionaries = sampleAttachmentDictionaries else {
                return key == kCMSampleAttachmentKey_NotSync && allSamplesNotSync ? true : nil
            }
            guard index >= 0, index < dictionaries.count else { return nil }
            return dictionaries[index].object(forKey: NSString(string: key))
        }
    }

    // MARK: Timing

    /// Timing of sample `index`, expanding a single shared entry.
    func timing(at index: Int) -> CMSampleTimingInfo? {
        guard index >= 0, index < max(numSamplesStored, timingEntries.count), !timingEntries.isEmpty else {
            return nil
        }
        if timingEntries.count == 1 && index > 0 {
            let entry = timingEntries[0]
            let step = index <= Int(Int32.max) ? CMTimeMultiply(entry.duration, multiplier: Int32(index)) : .invalid
            return CMSampleTimingInfo(
                duration: entry.duration,
                presentationTimeStamp: entry.presentationTimeStamp.isNumeric && step.isNumeric
                    ? CMTimeAdd(entry.presentationTimeStamp, step) : entry.presentationTimeStamp,
                decodeTimeStamp: entry.decodeTimeStamp.isNumeric && step.isNumeric
                    ? CMTimeAdd(entry.decodeTimeStamp, step) : entry.decodeTimeStamp)
        }
        return timingEntries[min(index, timingEntries.count - 1)]
    }

    var earliestPresentationTimeStamp: CMTime {
        guard let first = timingEntries.first else { return .invalid }
        if timingEntries.count == 1 { return first.presentationTimeStamp }
        return timingEntries.map(\.presentationTimeStamp).filter(\.isNumeric).min() ?? first.presentationTimeStamp
    }

    var totalDuration: CMTime {
        guard let first = timingEntries.first else { return .invalid }
        if timingEntries.count == 1 {
            guard first.duration.isNumeric, numSamplesStored > 1 else { return first.duration }
            return CMTimeMultiply(first.duration, multiplier: Int32(clamping: numSamplesStored))
        }
        return timingEntries.dropFirst().reduce(first.duration) { $0.isNumeric && $1.duration.isNumeric ? CMTimeAdd($0, $1.duration) : .invalid }
    }

    /// A trim attachment as a time; zero when absent.
    func trim(_ key: CFString) -> CMTime {
        guard let value = attachmentStore.get(key)?.value else { return .zero }
        let time = CMTimeMakeFromDictionary(value as? NSDictionary)
        return time.isNumeric ? time : .zero
    }

    // MARK: Sizes

    func size(at index: Int) -> Int {
        guard index >= 0, index < numSamplesStored, !sizeEntries.isEmpty else { return 0 }
        return sizeEntries.count == 1 ? sizeEntries[0] : sizeEntries[index]
    }

    var totalSize: Int {
        guard !sizeEntries.isEmpty else { return 0 }
        return sizeEntries.count == 1 ? sizeEntries[0] * numSamplesStored : sizeEntries.reduce(0, +)
    }

    static func error(_ status: OSStatus) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: Int(status))
    }
}
