import CFFmpeg
import Foundation

/// FFmpeg's I/O (`AVIOContext`) over a `ByteSource`: the read and seek callbacks, the position,
/// and the source's failure for the demuxer to report. Owns the context and its buffer.
final class ByteSourceIO {
    /// The context handed to the format context (`pb`), valid until deinit.
    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    /// Where the next read starts.
    private var position: Int64 = 0
    /// The failure that made a read or seek fail, the cause the demuxer reports.
    private(set) var failure: EngineError?
    let source: any ByteSource

    /// The size of FFmpeg's read buffer.
    private static let bufferSize: Int32 = 64 * 1024

    /// Opens `source` and wraps it; throws the source's failure, or when out of memory.
    init(source: any ByteSource, operation: String) throws(EngineError) {
        self.source = source
        try source.open()
        guard let buffer = av_malloc(Int(Self.bufferSize)) else {
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: operation)
        }
        let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, bytes, count in
            guard let opaque, let bytes else { return cffmpeg_averror(EINVAL) }
            return Unmanaged<ByteSourceIO>.fromOpaque(opaque).takeUnretainedValue()
                .read(into: UnsafeMutableRawBufferPointer(start: bytes, count: Int(count)))
        }
        let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
            guard let opaque else { return Int64(cffmpeg_averror(EINVAL)) }
            return Unmanaged<ByteSourceIO>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence: whence)
        }
        guard let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0,
                                               nil, read, nil, seek) else {
            av_free(buffer)
            throw EngineError(ffmpegCode: cffmpeg_averror(ENOMEM), operation: operation)
        }
        // The context refers to this object without retaining it: the demuxer owning both
        // closes the format context before letting go of this.
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        self.context = context
    }

    deinit {
        if let context {
            av_freep(&context.pointee.buffer)
        }
        avio_context_free(&context)
    }

    /// FFmpeg's read callback: bytes from the position on, `AVERROR_EOF` at the end.
    private func read(into buffer: UnsafeMutableRawBufferPointer) -> Int32 {
        do throws(EngineError) {
            let count = try source.read(into: buffer, at: position)
            guard count > 0 else { return cffmpeg_averror_eof() }
            position += Int64(count)
            return Int32(count)
        } catch {
            failure = error
            return error.code < 0 ? error.code : cffmpeg_averror(EIO)
        }
    }

    /// FFmpeg's seek callback: `AVSEEK_SIZE` asks for the length (an error when unknown), else
    /// the new position from the start, the position or the end.
    private func seek(_ offset: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return source.length ?? Int64(cffmpeg_averror(ENOSYS)) }
        let target: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END:
            guard let length = source.length else { return Int64(cffmpeg_averror(ENOSYS)) }
            target = length + offset
        default: return Int64(cffmpeg_averror(EINVAL))
        }
        guard target >= 0 else { return Int64(cffmpeg_averror(EINVAL)) }
        position = target
        return target
    }
}
