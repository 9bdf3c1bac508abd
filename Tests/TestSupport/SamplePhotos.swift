import Foundation

/// Photographs for the face detector's tests: scikit-image's sample pictures, which
/// `scripts/setup` takes from its wheel (PyPI) into the user's cache.
public enum SamplePhotos {
    /// `astronaut.png` (512x512, one face), `chelsea.png` (a cat), `coffee.png`, `rocket.jpg`,
    /// `coins.png`, `horse.png` (no face).
    public static func photo(_ name: String) throws -> URL {
        try RealWorldFixtures.fetchedMedia("scikit-image-0.26.0/\(name)")
    }
}
