import Foundation

/// How a video layer fits its video into its bounds.
public struct AVLayerVideoGravity: RawRepresentable, Hashable, Sendable {
    /// The gravity's name, as Apple's constants spell it (`"AVLayerVideoGravityResizeAspect"`).
    public let rawValue: String

    /// Creates a gravity from its raw value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The whole picture, as large as fits, its aspect ratio kept (bars on two sides); the
    /// default.
    public static let resizeAspect = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspect")
    /// The bounds filled, the aspect ratio kept (the picture cut on two sides).
    public static let resizeAspectFill = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspectFill")
    /// The picture stretched to the bounds.
    public static let resize = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResize")

    /// Where a picture of `size` goes in `bounds` under this gravity; zero for an empty picture.
    func videoRect(for size: CGSize, in bounds: CGRect) -> CGRect {
        guard size.width > 0, size.height > 0 else { return .zero }
        switch self {
        case .resize:
            return bounds
        case .resizeAspectFill:
            let scale = max(bounds.width / size.width, bounds.height / size.height)
            let filled = CGSize(width: size.width * scale, height: size.height * scale)
            return CGRect(x: bounds.midX - filled.width / 2, y: bounds.midY - filled.height / 2,
                          width: filled.width, height: filled.height)
        default:
            return AVMakeRect(aspectRatio: size, insideRect: bounds)
        }
    }
}
