import OpenCoreMedia

/// Writes a render bus's float planes into a buffer list of another linear PCM layout: 32-bit
/// float or 16- or 32-bit integer, interleaved or not, as manual rendering's format asks.
enum SampleWriter {
    /// Writes `frames` frames of `source` (nil: silence) to `list` in `format`; channels the
    /// source lacks are silent.
    static func write(_ source: RenderBus?, frames: Int, to list: UnsafeMutableAudioBufferListPointer, format: AVAudioFormat) {
        let channels = Int(format.channelCount)
        let interleaved = format.isInterleaved
        for channel in 0..<channels {
            let bufferIndex = interleaved ? 0 : channel
            guard bufferIndex < list.count, let data = list[bufferIndex].mData else { continue }
            let stride = interleaved ? channels : 1
            let offset = interleaved ? channel : 0
            let plane: UnsafeMutablePointer<Float>? = source.flatMap { channel < $0.channelCount ? $0.planes[channel] : nil }
            switch format.commonFormat {
            case .pcmFormatFloat32:
                let out = data.assumingMemoryBound(to: Float.self) + offset
                for frame in 0..<frames { out[frame * stride] = plane?[frame] ?? 0 }
            case .pcmFormatInt16:
                let out = data.assumingMemoryBound(to: Int16.self) + offset
                for frame in 0..<frames { out[frame * stride] = Int16(max(-1, min(1, plane?[frame] ?? 0)) * 32767) }
            case .pcmFormatInt32:
                let out = data.assumingMemoryBound(to: Int32.self) + offset
                for frame in 0..<frames { out[frame * stride] = Int32(Double(max(-1, min(1, plane?[frame] ?? 0))) * 2_147_483_647) }
            case .pcmFormatFloat64:
                let out = data.assumingMemoryBound(to: Double.self) + offset
                for frame in 0..<frames { out[frame * stride] = Double(plane?[frame] ?? 0) }
            default:
                continue
            }
        }
    }
}
