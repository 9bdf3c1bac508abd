import Foundation
import OpenCoreMedia
import OpenCoreVideo

extension AVAssetImageGenerator {
    /// The images at a list of times, made one after the other as the sequence is iterated:
    /// `for await result in generator.images(for: times) { let image = try result.image }`.
    public struct Images: AsyncSequence, Sendable {
        /// One requested time and what was made for it.
        public struct Element: Sendable {
            /// The time asked for.
            public let requestedTime: CMTime
            let outcome: Swift.Result<(image: CGImage, actualTime: CMTime), any Error>

            /// The image, or the error that prevented it.
            public var image: CGImage {
                get throws { try outcome.get().image }
            }

            /// The time the image was taken at, or the error that prevented it.
            public var actualTime: CMTime {
                get throws { try outcome.get().actualTime }
            }
        }

        /// Makes the images in order.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let generator: AVAssetImageGenerator
            var times: IndexingIterator<[CMTime]>

            /// The next image, or nil after the last time.
            public mutating func next() async -> Element? {
                guard let time = times.next() else { return nil }
                do {
                    let made = try await generator.image(at: time)
                    return Element(requestedTime: time, outcome: .success(made))
                } catch {
                    return Element(requestedTime: time, outcome: .failure(error))
                }
            }
        }

        let generator: AVAssetImageGenerator
        let times: [CMTime]

        /// An iterator over the images.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(generator: generator, times: times.makeIterator())
        }
    }

    /// The images at `times`, as an asynchronous sequence.
    public func images(for times: [CMTime]) -> Images {
        Images(generator: self, times: times)
    }
}
