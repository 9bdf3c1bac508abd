import Foundation
import OpenCoreVideo

/// What a reader's video output settings ask for: a pixel format (or the decoder's own when
/// none is named) and, optionally, a size to scale to.
struct VideoOutputSettings: Equatable {
    /// The pixel format asked for, or nil for the decoder's own layout when CoreVideo has it.
    var pixelFormatType: OSType?
    /// Every supported format the settings name: when they name several, a decoded frame already
    /// in one of them is handed out as it is, otherwise converted to `pixelFormatType`.
    var acceptedPixelFormatTypes: [OSType] = []
    /// The size to scale to, or nil for the track's size.
    var width: Int?
    var height: Int?

    /// Reads `kCVPixelBufferPixelFormatTypeKey` (a number or an array of numbers: the decoder's
    /// own when it is one of them, else the first supported one), `kCVPixelBufferWidthKey` and `kCVPixelBufferHeightKey`; throws a
    /// message naming the key for anything else.
    init(_ settings: [String: Any]) throws(SettingsProblem) {
        for key in settings.keys where ![kCVPixelBufferPixelFormatTypeKey, kCVPixelBufferWidthKey, kCVPixelBufferHeightKey,
                                          kCVPixelBufferIOSurfacePropertiesKey, kCVPixelBufferMetalCompatibilityKey,
                                          kCVPixelBufferOpenGLCompatibilityKey].contains(key) {
            throw SettingsProblem("output settings key \(key) is not supported for decoded video")
        }
        if let value = settings[kCVPixelBufferPixelFormatTypeKey] {
            acceptedPixelFormatTypes = (value as? [Any] ?? [value]).compactMap(SettingsValue.integer).compactMap { OSType(exactly: $0) }
                .filter { CVPixelFormatDescription.description(for: $0) != nil }
            guard let supported = acceptedPixelFormatTypes.first
            else { throw SettingsProblem("kCVPixelBufferPixelFormatTypeKey \(value) names no supported pixel format") }
            pixelFormatType = supported
        }
        width = settings[kCVPixelBufferWidthKey].flatMap(SettingsValue.integer).map(Int.init)
        height = settings[kCVPixelBufferHeightKey].flatMap(SettingsValue.integer).map(Int.init)
        if let width, width <= 0 { throw SettingsProblem("kCVPixelBufferWidthKey must be positive, not \(width)") }
        if let height, height <= 0 { throw SettingsProblem("kCVPixelBufferHeightKey must be positive, not \(height)") }
    }
}

/// Output settings an output cannot honour, and why.
struct SettingsProblem: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
