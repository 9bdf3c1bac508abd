import Foundation

/// The shape of a pixel: the horizontal and vertical spacing of pixels (1:1 for square
/// pixels), as `AVVideoCompositionRenderContext.pixelAspectRatio` gives it.
public struct AVPixelAspectRatio: Sendable {
    /// The horizontal spacing of pixels.
    public var horizontalSpacing: Int
    /// The vertical spacing of pixels.
    public var verticalSpacing: Int

    /// A zero ratio, as C's zero-initialized struct.
    public init() {
        horizontalSpacing = 0
        verticalSpacing = 0
    }

    /// A ratio with the given spacings.
    public init(horizontalSpacing: Int, verticalSpacing: Int) {
        self.horizontalSpacing = horizontalSpacing
        self.verticalSpacing = verticalSpacing
    }
}
