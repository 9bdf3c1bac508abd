import Foundation

/// The largest rectangle of `aspectRatio`'s proportions that fits in `boundingRect`, centred in
/// it: where a picture goes when it is scaled to fit with its aspect ratio kept.
public func AVMakeRect(aspectRatio: CGSize, insideRect boundingRect: CGRect) -> CGRect {
    guard aspectRatio.width > 0, aspectRatio.height > 0 else { return .zero }
    let scale = min(boundingRect.width / aspectRatio.width, boundingRect.height / aspectRatio.height)
    let size = CGSize(width: aspectRatio.width * scale, height: aspectRatio.height * scale)
    return CGRect(x: boundingRect.midX - size.width / 2, y: boundingRect.midY - size.height / 2,
                  width: size.width, height: size.height)
}
