import Foundation
import OpenCoreVideo

/// A compositor of your own: given the source frames of each output time, it makes the
/// composed frame, in place of the built-in one. Set its class as the video composition's
/// `customVideoCompositorClass`.
///
/// Differs from Apple: the protocol requires `init()`, because Swift on Linux can make an
/// object from a class value only through a required initializer (Apple's runtime calls
/// `+new`). Declare `required override init()` in a compositor class that is not `final`.
/// Apple's optional members are requirements with default implementations here. The pixel
/// buffer attributes may be declared `[String: any Sendable]` (Apple's current SDK) or
/// `[String: Any]` (older SDKs and most published code): the value type is the associated
/// type `PixelBufferAttributeValue`, inferred from the declaration.
public protocol AVVideoCompositing: NSObjectProtocol, Sendable {
    /// Linux addition: the value type of the compositor's pixel buffer attribute dictionaries,
    /// `any Sendable` (Apple's current SDK) or `Any`, inferred from the compositor's own
    /// declarations so that both spellings compile.
    associatedtype PixelBufferAttributeValue = any Sendable
    /// Makes a compositor; the reader, export or player makes one per video composition use.
    init()
    /// The pixel buffer attributes the source frames must have, such as
    /// `kCVPixelBufferPixelFormatTypeKey`; nil for 32-bit BGRA.
    var sourcePixelBufferAttributes: [String: PixelBufferAttributeValue]? { get }
    /// The attributes of the buffers `AVVideoCompositionRenderContext.newPixelBuffer()` makes.
    var requiredPixelBufferAttributesForRenderContext: [String: PixelBufferAttributeValue] { get }
    /// Says the render size, scale or transform is now this context's.
    func renderContextChanged(_ newRenderContext: AVVideoCompositionRenderContext)
    /// Composes one frame: finish the request (on any thread) with a frame or an error.
    func startRequest(_ asyncVideoCompositionRequest: AVAsynchronousVideoCompositionRequest)
    /// Asks the compositor to finish every request under way with `finishCancelledRequest()`.
    func cancelAllPendingVideoCompositionRequests()
    /// Whether the compositor handles wide-colour source frames; false unless it says so.
    /// Linux sources are decoded to the compositor's pixel format either way.
    var supportsWideColorSourceFrames: Bool { get }
    /// Whether the compositor handles HDR source frames; false unless it says so. Linux
    /// sources are decoded to the compositor's pixel format either way.
    var supportsHDRSourceFrames: Bool { get }
    /// Whether the compositor can convert source frames' colour to the output's; false unless
    /// it says so. Not consulted on Linux: no colour conversion is asked of a compositor.
    var canConformColorOfSourceFrames: Bool { get }
}

extension AVVideoCompositing {
    /// Nothing to cancel: requests are finished as they come.
    public func cancelAllPendingVideoCompositionRequests() {}
    /// False: the compositor does not say it handles wide-colour frames.
    public var supportsWideColorSourceFrames: Bool { false }
    /// False: the compositor does not say it handles HDR frames.
    public var supportsHDRSourceFrames: Bool { false }
    /// False: the compositor does not say it converts colour.
    public var canConformColorOfSourceFrames: Bool { false }
}
