import Foundation
import OpenCoreVideo

/// A compositor of your own: given the source frames of each output time, it makes the
/// composed frame, in place of the built-in one. Set its class as the video composition's
/// `customVideoCompositorClass`.
///
/// Differs from Apple: the protocol requires `init()`, because Swift on Linux can make an
/// object from a class value only through a required initializer (Apple's runtime calls
/// `+new`). Declare `required override init()` in a compositor class that is not `final`.
public protocol AVVideoCompositing: AnyObject {
    /// Makes a compositor; the reader, export or player makes one per video composition use.
    init()
    /// The pixel buffer attributes the source frames must have, such as
    /// `kCVPixelBufferPixelFormatTypeKey`; nil for 32-bit BGRA.
    var sourcePixelBufferAttributes: [String: Any]? { get }
    /// The attributes of the buffers `AVVideoCompositionRenderContext.newPixelBuffer()` makes.
    var requiredPixelBufferAttributesForRenderContext: [String: Any] { get }
    /// Says the render size, scale or transform is now this context's.
    func renderContextChanged(_ newRenderContext: AVVideoCompositionRenderContext)
    /// Composes one frame: finish the request (on any thread) with a frame or an error.
    func startRequest(_ asyncVideoCompositionRequest: AVAsynchronousVideoCompositionRequest)
    /// Asks the compositor to finish every request under way with `finishCancelledRequest()`.
    func cancelAllPendingVideoCompositionRequests()
}

extension AVVideoCompositing {
    /// Nothing to cancel: requests are finished as they come.
    public func cancelAllPendingVideoCompositionRequests() {}
}
