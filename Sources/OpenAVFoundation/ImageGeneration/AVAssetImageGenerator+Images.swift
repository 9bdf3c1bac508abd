import Foundation
import OpenCoreMedia
import OpenCoreVideo

extension AVAssetImageGenerator {
    /// The images at a list of times, made one after the other as the sequence is iterated:
    /// `for await result in generator.images(for: times) { let image = try result.image }`.
    public struct Images: AsyncSequence, Sendable {
        /// One requested time and what was made for it.
        public enum Element: Sendable {
            /// The image was made.
            case success(requestedTime: CMTime, image: CGImage, actualTime: CMTime)
            /// The image could not be made; `error` says why.
            case failure(requestedTime: CMTime, error: any Error)

            /// The time asked for.
            public var requestedTime: CMTime {
                switch self {
                case .success(let requestedTime, _, _), .failure(let requestedTime, _): return requestedTime
                }
            }

            /// The image, or the error that prevented it.
            public var image: CGImage {
                get throws {
                    switch self {
                    case .success(_, let image, _): return image
                    case .failure(_, let error): throw error
                    }
                }
            }

            /// The time the image was taken at, or the error that prevented it.
            public var actualTime: CMTime {
                get throws {
                    switch self {
                    case .success(_, _, let actualTime): return actualTime
                    case .failure(_, let error): throw error
                    }
                }
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
                    return .success(requestedTime: time, image: made.image, actualTime: made.actualTime)
                } catch {
                    return .failure(requestedTime: time, error: error)
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
