import Foundation
import OpenCoreVideo

/// The width and height of video frames, in pixels.
///
/// Linux addition: `Hashable` and `Sendable`.
public struct CMVideoDimensions: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int32
    /// Height in pixels.
    public var height: Int32

    /// Creates zero dimensions.
    public init() {
        self.init(width: 0, height: 0)
    }

    /// Creates dimensions from a width and a height.
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }
}
