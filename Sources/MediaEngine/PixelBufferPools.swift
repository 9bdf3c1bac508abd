import OpenCoreVideo

/// Pixel buffer pools by format and size, for whoever converts pictures into buffers of its
/// own (a reader's output, a capture output): the pools of the last few geometries are kept, so
/// steady work allocates nothing, and a change of format or size drops the oldest.
/// Used by one thread at a time.
package final class PixelBufferPools {
    private struct Key: Equatable {
        let pixelFormat: OSType
        let width: Int
        let height: Int
    }

    /// How many geometries keep their pool.
    private let capacity: Int
    private var pools: [(key: Key, pool: CVPixelBufferPool)] = []

    /// Pools for up to `capacity` geometries at a time (two for a conversion through an
    /// intermediate buffer).
    package init(capacity: Int = 1) {
        self.capacity = max(1, capacity)
    }

    /// A buffer of a format and size from its pool (made on first use); nil when memory runs out.
    package func buffer(pixelFormat: OSType, width: Int, height: Int) -> CVPixelBuffer? {
        let key = Key(pixelFormat: pixelFormat, width: width, height: height)
        let pool: CVPixelBufferPool
        if let index = pools.firstIndex(where: { $0.key == key }) {
            pool = pools[index].pool
        } else {
            let attributes: [String: Any] = [
                kCVPixelBufferPixelFormatTypeKey: pixelFormat, kCVPixelBufferWidthKey: width,
                kCVPixelBufferHeightKey: height,
            ]
            var made: CVPixelBufferPool?
            CVPixelBufferPoolCreate(nil, nil, attributes as CFDictionary, &made)
            guard let made else { return nil }
            if pools.count == capacity { pools.removeFirst() }
            pools.append((key, made))
            pool = made
        }
        var buffer: CVPixelBuffer?
        CVPixelBufferPoolCreatePixelBuffer(nil, pool, &buffer)
        return buffer
    }
}
