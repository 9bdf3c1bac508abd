import FuzzSupport
@testable import OpenAVFoundation

/// A file's video sample buffers, read by a passthrough reader, enqueued into an
/// `AVSampleBufferDisplayLayer` as a streaming client would, and some not as one should: every
/// video track into the one layer (formats that change), and by the input's length in order,
/// out of order, with buffers missing, or shown at once with a flush half way. The layer's
/// timebase stands past every time, so each picture decoded is due and the one shown is
/// touched. A failed layer must say why, and start over after a flush.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnqueue(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzInput.run(bytes, count) { url in
        let asset = AVURLAsset(url: url)
        guard let tracks = try? await asset.loadTracks(withMediaType: .video), !tracks.isEmpty,
              let reader = try? AVAssetReader(asset: asset) else { return }
        let outputs = tracks.map { AVAssetReaderTrackOutput(track: $0, outputSettings: nil) }
        for output in outputs where reader.canAdd(output) { reader.add(output) }
        guard !reader.outputs.isEmpty, reader.startReading() else { return }
        var buffers: [CMSampleBuffer] = []
        for output in outputs {
            while buffers.count < 600, let buffer = output.copyNextSampleBuffer() { buffers.append(buffer) }
        }
        let layer = AVSampleBufferDisplayLayer()
        guard let timebase = try? CMTimebase(sourceClock: CMClockGetHostTimeClock()) else { return }
        try? timebase.setTime(CMTime(value: 1_000_000, timescale: 1))
        layer.controlTimebase = timebase
        let renderer = layer.sampleBufferRenderer
        switch count % 4 {
        case 0: break
        case 1: buffers = stride(from: 0, to: buffers.count, by: 3).flatMap { buffers[$0..<min($0 + 3, buffers.count)].reversed() }
        case 2: buffers = buffers.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        default:
            for buffer in buffers {
                CMSetAttachment(buffer, key: kCMSampleAttachmentKey_DisplayImmediately, value: kCFBooleanTrue, attachmentMode: kCMAttachmentMode_ShouldPropagate)
            }
        }
        for (index, buffer) in buffers.enumerated() {
            layer.enqueue(buffer)
            if count % 4 == 3 && index == buffers.count / 2 { layer.flushAndRemoveImage() }
            if index % 8 == 0 { renderer.displayedPixelBuffer().map(Touch.bytes(of:)) }
        }
        renderer.finishDecoding()
        renderer.displayedPixelBuffer().map(Touch.bytes(of:))
        if layer.status == .failed && layer.error == nil { FuzzInput.finding("the layer failed without an error") }
        layer.flush()
        if layer.status == .failed || layer.error != nil { FuzzInput.finding("a flush left the layer failed") }
        if let first = buffers.first {
            layer.enqueue(first)
            renderer.finishDecoding()
            renderer.displayedPixelBuffer().map(Touch.bytes(of:))
        }
    }
    return 0
}
