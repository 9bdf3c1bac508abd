import Foundation
import OpenCoreVideo

/// The widths of the edges of a picture outside its clean aperture, in pixels, as
/// `AVVideoCompositionRenderContext.edgeWidths` gives them.
public struct AVEdgeWidths: Sendable {
    /// The width of the left edge.
    public var left: CGFloat
    /// The width of the top edge.
    public var top: CGFloat
    /// The width of the right edge.
    public var right: CGFloat
    /// The width of the bottom edge.
    public var bottom: CGFloat

    /// Edges of zero width, as C's zero-initialized struct.
    public init() {
        left = 0
        top = 0
        right = 0
        bottom = 0
    }

    /// Edges of the given widths.
    public init(left: CGFloat, top: CGFloat, right: CGFloat, bottom: CGFloat) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }
}
