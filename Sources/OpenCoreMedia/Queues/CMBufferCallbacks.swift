import Foundation
import OpenCoreVideo

/// Gives a time of a buffer; `refcon` is the callbacks' `refcon`.
public typealias CMBufferGetTimeCallback = (CMBuffer, UnsafeMutableRawPointer?) -> CMTime
/// Gives whether a buffer's data is ready.
public typealias CMBufferGetBooleanCallback = (CMBuffer, UnsafeMutableRawPointer?) -> Bool
/// Orders two buffers.
public typealias CMBufferCompareCallback = (CMBuffer, CMBuffer, UnsafeMutableRawPointer?) -> CFComparisonResult
/// Gives a buffer's size in bytes.
public typealias CMBufferGetSizeCallback = (CMBuffer, UnsafeMutableRawPointer?) -> Int

/// The callbacks `CMBufferQueueCreate` asks buffers with, each passed `refcon`.
///
/// Differs from Apple: the callbacks are Swift closures rather than C function pointers (a C
/// function cannot take a Swift object), and `dataBecameReadyNotification` is a plain string.
public struct CMBufferCallbacks {
    /// Must be 0.
    public var version: UInt32
    /// Passed to every callback.
    public var refcon: UnsafeMutableRawPointer?
    /// The buffer's earliest decode timestamp.
    public var getDecodeTimeStamp: CMBufferGetTimeCallback?
    /// The buffer's earliest presentation timestamp.
    public var getPresentationTimeStamp: CMBufferGetTimeCallback?
    /// The buffer's duration (required).
    public var getDuration: CMBufferGetTimeCallback
    /// Whether the buffer's data is ready.
    public var isDataReady: CMBufferGetBooleanCallback?
    /// The buffers' order; nil for first in first out.
    public var compare: CMBufferCompareCallback?
    /// The notification a buffer posts when its data becomes ready.
    public var dataBecameReadyNotification: CFString?
    /// The buffer's size in bytes.
    public var getSize: CMBufferGetSizeCallback?

    /// Callbacks with these fields.
    public init(version: UInt32, refcon: UnsafeMutableRawPointer?, getDecodeTimeStamp: CMBufferGetTimeCallback?,
                getPresentationTimeStamp: CMBufferGetTimeCallback?, getDuration: @escaping CMBufferGetTimeCallback,
                isDataReady: CMBufferGetBooleanCallback?, compare: CMBufferCompareCallback?,
                dataBecameReadyNotification: CFString?, getSize: CMBufferGetSizeCallback?) {
        self.version = version
        self.refcon = refcon
        self.getDecodeTimeStamp = getDecodeTimeStamp
        self.getPresentationTimeStamp = getPresentationTimeStamp
        self.getDuration = getDuration
        self.isDataReady = isDataReady
        self.compare = compare
        self.dataBecameReadyNotification = dataBecameReadyNotification
        self.getSize = getSize
    }

    /// The callbacks that ask what `handlers` asks.
    init(_ handlers: CMBufferQueue.Handlers) {
        self.init(version: 0, refcon: nil, getDecodeTimeStamp: handlers.getDecodeTimeStamp.map { get in { buffer, _ in get(buffer) } },
                  getPresentationTimeStamp: handlers.getPresentationTimeStamp.map { get in { buffer, _ in get(buffer) } },
                  getDuration: { buffer, _ in handlers.getDuration(buffer) },
                  isDataReady: handlers.isDataReady.map { get in { buffer, _ in get(buffer) } },
                  compare: handlers.compare.map { order in { lhs, rhs, _ in order(lhs, rhs) } },
                  dataBecameReadyNotification: handlers.dataBecameReadyNotification,
                  getSize: handlers.getSize.map { get in { buffer, _ in get(buffer) } })
    }

    /// The handlers that call these callbacks with their `refcon`.
    var handlers: CMBufferQueue.Handlers {
        let refcon = refcon, callbacks = self
        return CMBufferQueue.Handlers { builder in
            builder.getDuration { callbacks.getDuration($0, refcon) }
            if let get = callbacks.getDecodeTimeStamp { builder.getDecodeTimeStamp { get($0, refcon) } }
            if let get = callbacks.getPresentationTimeStamp { builder.getPresentationTimeStamp { get($0, refcon) } }
            if let get = callbacks.isDataReady { builder.isDataReady { get($0, refcon) } }
            if let order = callbacks.compare { builder.compare { order($0, $1, refcon) } }
            if let get = callbacks.getSize { builder.getSize { get($0, refcon) } }
            builder.dataBecameReadyNotification = callbacks.dataBecameReadyNotification
        }
    }
}

/// The callbacks for `CMSampleBuffer`s in the order they are enqueued, as
/// `CMBufferQueue.Handlers.unsortedSampleBuffers`.
public func CMBufferQueueGetCallbacksForUnsortedSampleBuffers() -> UnsafePointer<CMBufferCallbacks> {
    UnsafePointer(unsortedSampleBufferCallbacks)
}

/// The callbacks for `CMSampleBuffer`s sorted by output presentation timestamp, as
/// `CMBufferQueue.Handlers.outputPTSSortedSampleBuffers`.
public func CMBufferQueueGetCallbacksForSampleBuffersSortedByOutputPTS() -> UnsafePointer<CMBufferCallbacks> {
    UnsafePointer(sortedSampleBufferCallbacks)
}

/// Made once and never freed, as Apple's are static.
nonisolated(unsafe) private let unsortedSampleBufferCallbacks = staticCallbacks(.unsortedSampleBuffers)
nonisolated(unsafe) private let sortedSampleBufferCallbacks = staticCallbacks(.outputPTSSortedSampleBuffers)

private func staticCallbacks(_ handlers: CMBufferQueue.Handlers) -> UnsafeMutablePointer<CMBufferCallbacks> {
    let callbacks = UnsafeMutablePointer<CMBufferCallbacks>.allocate(capacity: 1)
    callbacks.initialize(to: CMBufferCallbacks(handlers))
    return callbacks
}
