import Foundation

/// Gives the faces of consecutive frames read by a metadata output their IDs
/// (`AVMetadataFaceObject.faceID`): a face overlapping one of the last frame read (their
/// intersection at least a third of their union) keeps its ID; any other gets a new one, never
/// given before. Used by the output's reading thread only.
struct FaceIdentities {
    private var last: [(id: Int, bounds: CGRect)] = []
    private var next = 1

    /// The IDs of the faces within `bounds` (in any one coordinate system), in their order.
    mutating func identify(_ bounds: [CGRect]) -> [Int] {
        var unclaimed = last
        let ids = bounds.map { face -> Int in
            let best = unclaimed.indices.max { Self.overlap(unclaimed[$0].bounds, face) < Self.overlap(unclaimed[$1].bounds, face) }
            if let best, Self.overlap(unclaimed[best].bounds, face) >= 1.0 / 3 {
                return unclaimed.remove(at: best).id
            }
            defer { next += 1 }
            return next
        }
        last = Array(zip(ids, bounds))
        return ids
    }

    /// Intersection over union.
    private static func overlap(_ a: CGRect, _ b: CGRect) -> Double {
        let shared = a.intersection(b)
        guard !shared.isNull, !shared.isEmpty else { return 0 }
        let common = shared.width * shared.height
        return common / (a.width * a.height + b.width * b.height - common)
    }
}
