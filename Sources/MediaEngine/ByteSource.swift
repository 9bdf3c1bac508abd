import Foundation

/// Bytes of a resource that FFmpeg cannot fetch itself (a URL with a scheme of the caller's),
/// supplied by the layer above: the demuxer reads it through `ByteSourceIO`. Reads come from
/// the demuxer's thread and may block until the bytes arrive; `cancel()` comes from any thread.
package protocol ByteSource: AnyObject {
    /// Asks for what the resource is (its length, whether it can be read at any offset);
    /// throws when it cannot be loaded. Called once, before any read.
    func open() throws(EngineError)

    /// The resource's length in bytes, or nil when unknown (known after `open()`).
    var length: Int64? { get }

    /// Copies bytes from `offset` into `buffer`, waiting for them: how many were copied (at
    /// least one), or 0 at the end of the resource. Throws when the bytes cannot be had.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(EngineError) -> Int

    /// Gives up every load under way and any to come: a waiting read fails.
    func cancel()
}

/// Makes the `ByteSource` of a URL FFmpeg has no protocol for; one per demuxer.
package protocol ByteSourceFactory: AnyObject, Sendable {
    /// Whether this factory serves `url`.
    func serves(_ url: URL) -> Bool

    /// A new source for `url`, whose loads give up after `timeout` without progress.
    func makeSource(for url: URL, timeout: Duration) -> any ByteSource
}
