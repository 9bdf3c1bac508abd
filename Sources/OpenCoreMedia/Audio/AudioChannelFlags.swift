import Foundation
import OpenCoreVideo

/// Flags saying how an `AudioChannelDescription`'s coordinates are to be read.
public struct AudioChannelFlags: OptionSet, Hashable, Sendable {
    /// The bits of the set.
    public let rawValue: UInt32
    /// Creates a set from its bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// No flags.
    public static let allOff = AudioChannelFlags([])
    /// Coordinates are left/right, back/front, down/up.
    public static let rectangularCoordinates = AudioChannelFlags(rawValue: 1 << 0)
    /// Coordinates are azimuth, elevation, distance.
    public static let sphericalCoordinates = AudioChannelFlags(rawValue: 1 << 1)
    /// Units are meters; when clear, relative to a unit cube or sphere.
    public static let meters = AudioChannelFlags(rawValue: 1 << 2)
}
