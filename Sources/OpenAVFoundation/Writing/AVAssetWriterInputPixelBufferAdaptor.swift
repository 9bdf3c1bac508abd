import Foundation
import OpenCoreMedia
import OpenCoreVideo

/// Appends pixel buffers with their presentation times to a video input, and offers a pool of
/// buffers in the source format to draw into.
open class AVAssetWriterInputPixelBufferAdaptor: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var pool: CVPixelBufferPool?

    /// The input pictures are appended to.
    public let assetWriterInput: AVAssetWriterInput
    /// The attributes given at creation, as passed.
    private let attributes: [String: Any]?

    /// The pixel buffer attributes of the pool (`kCVPixelBufferPixelFormatTypeKey`, width, height).
    public var sourcePixelBufferAttributes: [String: any Sendable]? {
        // `any Sendable` is `Any` at run time (a marker protocol), so the dictionary is the same.
        attributes.map { unsafeBitCast($0, to: [String: any Sendable].self) }
    }

    /// Creates an adaptor for a video input; `sourcePixelBufferAttributes` describe the buffers
    /// that will be appended (32BGRA at the input's size when nil).
    public init(assetWriterInput input: AVAssetWriterInput, sourcePixelBufferAttributes: [String: Any]? = nil) {
        Misuse.check(input.mediaType == .video, .adaptorWithoutVideoInput)
        assetWriterInput = input
        attributes = sourcePixelBufferAttributes
        super.init()
    }

    /// A pool of buffers in the source format; nil until the writer has started writing.
    open var pixelBufferPool: CVPixelBufferPool? {
        guard assetWriterInput.writer?.status == .writing else { return nil }
        return lock.withLock {
            if let pool { return pool }
            var attributes = self.attributes ?? [:]
            if attributes[kCVPixelBufferPixelFormatTypeKey] == nil { attributes[kCVPixelBufferPixelFormatTypeKey] = kCVPixelFormatType_32BGRA }
            if case .success(.some(.video(let video))) = assetWriterInput.plan {
                if attributes[kCVPixelBufferWidthKey] == nil { attributes[kCVPixelBufferWidthKey] = video.width }
                if attributes[kCVPixelBufferHeightKey] == nil { attributes[kCVPixelBufferHeightKey] = video.height }
            }
            var made: CVPixelBufferPool?
            CVPixelBufferPoolCreate(nil, nil, attributes as CFDictionary, &made)
            pool = made
            return made
        }
    }

    /// Appends a picture shown at `presentationTime`; false when the input cannot take it
    /// (the writer's `status` and `error` say why). Any supported pixel format and size is
    /// converted once to what the encoder takes.
    @discardableResult
    open func append(_ pixelBuffer: CVPixelBuffer, withPresentationTime presentationTime: CMTime) -> Bool {
        assetWriterInput.append(pixelBuffer, at: presentationTime)
    }
}
