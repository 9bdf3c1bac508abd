import Foundation

/// A source of bytes for a `CGImage`, as Core Graphics.
///
/// Differs from Apple: only the data-backed form exists; the data is copied when created from a
/// mutable `NSMutableData`, so later changes to it do not reach the image.
public final class CGDataProvider: @unchecked Sendable {
    private let bytes: NSData

    /// Creates a provider that reads from `data`.
    public init?(data: CFData) {
        bytes = data is NSMutableData ? NSData(data: data as Data) : data
    }

    /// The provider's bytes.
    public var data: CFData? {
        bytes
    }
}
