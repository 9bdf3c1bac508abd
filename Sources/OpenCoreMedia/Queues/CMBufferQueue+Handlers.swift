import Foundation
import OpenCoreVideo

/// Gives a time of a buffer: its decode timestamp, presentation timestamp or duration.
public typealias CMBufferGetTimeHandler = (CMBuffer) -> CMTime
/// Gives whether a buffer's data is ready.
public typealias CMBufferGetBooleanHandler = (CMBuffer) -> Bool
/// Orders two buffers, for a sorted queue.
public typealias CMBufferCompareHandler = (CMBuffer, CMBuffer) -> CFComparisonResult
/// Gives a buffer's size in bytes.
public typealias CMBufferGetSizeHandler = (CMBuffer) -> Int

extension CMBufferQueue {
    /// What a queue asks its buffers: their duration (required), timestamps, readiness, order
    /// and size. They must answer the same for a buffer while it is in the queue, except
    /// readiness, which may only go from false to true.
    public struct Handlers {
        /// The buffer's earliest decode timestamp; nil leaves `minDecodeTimeStamp` invalid.
        public let getDecodeTimeStamp: CMBufferGetTimeHandler?
        /// The buffer's earliest presentation timestamp; nil leaves the presentation timestamps invalid.
        public let getPresentationTimeStamp: CMBufferGetTimeHandler?
        /// The buffer's duration, summed into the queue's.
        public let getDuration: CMBufferGetTimeHandler
        /// Whether the buffer's data is ready; nil for always.
        public let isDataReady: CMBufferGetBooleanHandler?
        /// The buffers' order; nil for first in first out.
        public let compare: CMBufferCompareHandler?
        /// The notification a buffer posts when its data becomes ready, which the queue listens
        /// for on its head buffer to fire `whenDataBecomesReady` triggers.
        public let dataBecameReadyNotification: String?
        /// The buffer's size in bytes; nil leaves `totalSize` at 0.
        public let getSize: CMBufferGetSizeHandler?

        /// The handlers set on a builder; stops the process when `getDuration` is not set, as it
        /// is required.
        public init(withHandlers body: (inout Builder) -> Void) {
            var builder = Builder()
            body(&builder)
            guard let getDuration = builder.duration else { Misuse.fail(.bufferQueueHandlersWithoutDuration) }
            getDecodeTimeStamp = builder.decodeTimeStamp
            getPresentationTimeStamp = builder.presentationTimeStamp
            self.getDuration = getDuration
            isDataReady = builder.dataReady
            compare = builder.order
            dataBecameReadyNotification = builder.dataBecameReadyNotification
            getSize = builder.size
        }

        /// These handlers with those `body` sets replacing theirs.
        public func withHandlers(_ body: (inout Builder) -> Void) -> Handlers {
            Handlers { builder in
                builder = Builder(decodeTimeStamp: getDecodeTimeStamp, presentationTimeStamp: getPresentationTimeStamp,
                                  duration: getDuration, dataReady: isDataReady, order: compare, size: getSize,
                                  dataBecameReadyNotification: dataBecameReadyNotification)
                body(&builder)
            }
        }

        /// Sets the handlers of a `Handlers` one by one.
        public struct Builder {
            var decodeTimeStamp: CMBufferGetTimeHandler?
            var presentationTimeStamp: CMBufferGetTimeHandler?
            var duration: CMBufferGetTimeHandler?
            var dataReady: CMBufferGetBooleanHandler?
            var order: CMBufferCompareHandler?
            var size: CMBufferGetSizeHandler?
            /// The notification a buffer posts when its data becomes ready.
            public var dataBecameReadyNotification: String?

            /// Sets the decode timestamp handler.
            public mutating func getDecodeTimeStamp(_ body: @escaping CMBufferGetTimeHandler) { decodeTimeStamp = body }
            /// Sets the presentation timestamp handler.
            public mutating func getPresentationTimeStamp(_ body: @escaping CMBufferGetTimeHandler) { presentationTimeStamp = body }
            /// Sets the duration handler (required).
            public mutating func getDuration(_ body: @escaping CMBufferGetTimeHandler) { duration = body }
            /// Sets the readiness handler.
            public mutating func isDataReady(_ body: @escaping CMBufferGetBooleanHandler) { dataReady = body }
            /// Sets the order handler.
            public mutating func compare(_ body: @escaping CMBufferCompareHandler) { order = body }
            /// Sets the size handler.
            public mutating func getSize(_ body: @escaping CMBufferGetSizeHandler) { size = body }
        }

        /// For `CMSampleBuffer`s in the order they are enqueued: their decode and presentation
        /// timestamps, duration, readiness and total sample size.
        nonisolated(unsafe) public static let unsortedSampleBuffers = Handlers { builder in
            builder.getDecodeTimeStamp { ($0 as! CMSampleBuffer).decodeTimeStamp }
            builder.getPresentationTimeStamp { ($0 as! CMSampleBuffer).presentationTimeStamp }
            builder.getDuration { ($0 as! CMSampleBuffer).duration }
            builder.isDataReady { ($0 as! CMSampleBuffer).dataReadiness == .ready }
            builder.getSize { ($0 as! CMSampleBuffer).totalSampleSize }
            builder.dataBecameReadyNotification = kCMSampleBufferNotification_DataBecameReady
        }

        /// For `CMSampleBuffer`s sorted by output presentation timestamp: their decode timestamp,
        /// output presentation timestamp, output duration, readiness and total sample size.
        nonisolated(unsafe) public static let outputPTSSortedSampleBuffers = Handlers { builder in
            builder.getDecodeTimeStamp { ($0 as! CMSampleBuffer).decodeTimeStamp }
            builder.getPresentationTimeStamp { ($0 as! CMSampleBuffer).outputPresentationTimeStamp }
            builder.getDuration { ($0 as! CMSampleBuffer).outputDuration }
            builder.isDataReady { ($0 as! CMSampleBuffer).dataReadiness == .ready }
            builder.compare { lhs, rhs in
                let order = CMTimeCompare((lhs as! CMSampleBuffer).outputPresentationTimeStamp,
                                          (rhs as! CMSampleBuffer).outputPresentationTimeStamp)
                return order < 0 ? .compareLessThan : order > 0 ? .compareGreaterThan : .compareEqualTo
            }
            builder.getSize { ($0 as! CMSampleBuffer).totalSampleSize }
            builder.dataBecameReadyNotification = kCMSampleBufferNotification_DataBecameReady
        }
    }
}
