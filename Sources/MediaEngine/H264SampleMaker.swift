import Foundation
import OpenCoreMedia

/// Makes `'avc1'` sample buffers — the form QuickTime, MP4 and CoreMedia keep H.264 in — from
/// access units as H.264 cameras send them, in Annex B form.
///
/// Annex B puts a start code (`00 00 01` or `00 00 00 01`) before each NAL unit and sends the
/// parameter sets (SPS, PPS) in band, before key frames. A sample made here holds the access
/// unit's other NAL units, each after its length as 4 big-endian bytes; the parameter sets go
/// out of band, into the format description's `avcC` record, and access unit delimiters are
/// left out. The format description (kept while the parameter sets stay the same) has the
/// dimensions given at `init`, the camera format's. An access unit with an IDR slice is a sync
/// sample; others carry `kCMSampleAttachmentKey_NotSync`. Used by one thread at a time; the
/// sample's bytes are its own (the camera's buffer may be reused at once).
package final class H264SampleMaker {
    /// NAL unit types (ITU-T H.264 table 7-1) the maker looks at.
    private enum UnitType {
        static let idrSlice: UInt8 = 5
        static let sequenceParameterSet: UInt8 = 7
        static let pictureParameterSet: UInt8 = 8
        static let accessUnitDelimiter: UInt8 = 9
    }

    private let dimensions: CMVideoDimensions
    private var sequenceParameterSet: [UInt8] = []
    private var pictureParameterSet: [UInt8] = []
    private var format: CMFormatDescription?
    /// The NAL units of the access unit being made, as byte ranges (then those kept in the
    /// sample); its capacity is kept.
    private var units: [Range<Int>] = []

    /// A maker of samples `width`×`height` (the camera format's size).
    package init(width: Int, height: Int) {
        dimensions = CMVideoDimensions(width: Int32(width), height: Int32(height))
    }

    /// The format description of the samples made since the last parameter sets; nil before any.
    package var formatDescription: CMFormatDescription? { format }

    /// Whether the last access unit given held a picture (a slice), whether or not it became a
    /// sample: a unit of parameter sets alone holds none.
    package private(set) var heldPicture = false

    /// The current parameter sets (SPS, then PPS) in Annex B form, for a decoder that starts
    /// again at a key frame without them; empty before any came.
    package var parameterSets: [UInt8] {
        guard format != nil else { return [] }
        return [0, 0, 0, 1] + sequenceParameterSet + [0, 0, 0, 1] + pictureParameterSet
    }

    /// The sample of one access unit, shown at `presentationTime` for `duration` (decode order is
    /// presentation order: cameras send no B-frames); nil when the unit holds no picture, or
    /// comes before the stream's first parameter sets (which a decoder needs).
    package func sample(of accessUnit: UnsafeRawBufferPointer, presentationTime: CMTime,
                        duration: CMTime) -> CMSampleBuffer? {
        let bytes = accessUnit.bindMemory(to: UInt8.self)
        findUnits(in: bytes)
        // Each unit's type is read once: the camera's buffer may change under us (v4l2loopback
        // lets its writer overwrite a buffer being read), and a second reading could then
        // disagree with the length allocated. `units` keeps the units that go into the sample.
        var length = 0
        var isSync = false
        var newSequence: Range<Int>?
        var newPicture: Range<Int>?
        var kept = 0
        heldPicture = false
        for index in units.indices {
            let unit = units[index]
            let type = bytes[unit.lowerBound] & 0x1F
            if (1...5).contains(type) { heldPicture = true }
            switch type {
            case UnitType.sequenceParameterSet: newSequence = unit
            case UnitType.pictureParameterSet: newPicture = unit
            case UnitType.accessUnitDelimiter: break
            default:
                if type == UnitType.idrSlice { isSync = true }
                length += 4 + unit.count
                units[kept] = unit
                kept += 1
            }
        }
        units.removeLast(units.count - kept)
        updateFormat(sequence: newSequence.map { bytes[$0] }, picture: newPicture.map { bytes[$0] })
        guard heldPicture, length > 0, let format else { return nil }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 16)
        var offset = 0
        for unit in units {
            memory.storeBytes(of: UInt32(unit.count).bigEndian, toByteOffset: offset, as: UInt32.self)
            (memory + offset + 4).copyMemory(from: accessUnit.baseAddress! + unit.lowerBound, byteCount: unit.count)
            offset += 4 + unit.count
        }
        let block = CMBlockBuffer(wrapping: memory, length: length) { memory.deallocate() }
        var timing = CMSampleTimingInfo(duration: duration, presentationTimeStamp: presentationTime,
                                        decodeTimeStamp: .invalid)
        var size = length
        var made: CMSampleBuffer?
        CMSampleBufferCreateReady(allocator: nil, dataBuffer: block, formatDescription: format, sampleCount: 1,
                                  sampleTimingEntryCount: 1, sampleTimingArray: &timing, sampleSizeEntryCount: 1,
                                  sampleSizeArray: &size, sampleBufferOut: &made)
        if !isSync { made?.markAllSamplesNotSync() }
        return made
    }

    /// Fills `units` with the ranges of the NAL units after each start code, without the zero
    /// bytes before the next start code (a 4-byte start code's first byte, trailing padding).
    private func findUnits(in bytes: UnsafeBufferPointer<UInt8>) {
        units.removeAll(keepingCapacity: true)
        var start: Int?
        var index = 0
        let count = bytes.count
        while index + 2 < count {
            if bytes[index + 2] > 1 {
                index += 3
            } else if bytes[index] == 0 && bytes[index + 1] == 0 && bytes[index + 2] == 1 {
                if let start { addUnit(start..<index, in: bytes) }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let start { addUnit(start..<count, in: bytes) }
    }

    /// Adds a unit's range, trailing zero bytes removed, when it is not empty.
    private func addUnit(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
        var end = range.upperBound
        while end > range.lowerBound && bytes[end - 1] == 0 { end -= 1 }
        if end > range.lowerBound { units.append(range.lowerBound..<end) }
    }

    /// Takes parameter sets that came in band (copied only when they changed); a new pair makes
    /// a new format description.
    private func updateFormat(sequence: Slice<UnsafeBufferPointer<UInt8>>?, picture: Slice<UnsafeBufferPointer<UInt8>>?) {
        var changed = false
        if let sequence, !sequence.elementsEqual(sequenceParameterSet) {
            sequenceParameterSet = Array(sequence)
            changed = true
        }
        if let picture, !picture.elementsEqual(pictureParameterSet) {
            pictureParameterSet = Array(picture)
            changed = true
        }
        guard changed else { return }
        // An avcC record holds sets of up to 65535 bytes (a longer one is corrupt).
        guard sequenceParameterSet.count >= 4, sequenceParameterSet.count <= 0xFFFF,
              !pictureParameterSet.isEmpty, pictureParameterSet.count <= 0xFFFF else {
            format = nil
            return
        }
        format = CMFormatDescription(mediaType: kCMMediaType_Video, mediaSubType: kCMVideoCodecType_H264,
                                     dimensions: dimensions,
                                     codecPrivateData: Self.configurationRecord(sequence: sequenceParameterSet,
                                                                                picture: pictureParameterSet))
    }

    /// The `avcC` record (ISO/IEC 14496-15 AVCDecoderConfigurationRecord) of one SPS and one PPS,
    /// with 4-byte NAL unit lengths; for profiles other than Baseline, Main and Extended also the
    /// chroma format and bit depths, as FFmpeg's MP4 muxer writes them.
    static func configurationRecord(sequence: [UInt8], picture: [UInt8]) -> Data {
        var record: [UInt8] = [1, sequence[1], sequence[2], sequence[3], 0xFC | 3, 0xE0 | 1]
        record += [UInt8(sequence.count >> 8), UInt8(sequence.count & 0xFF)] + sequence
        record += [1, UInt8(picture.count >> 8), UInt8(picture.count & 0xFF)] + picture
        if ![66, 77, 88].contains(sequence[1]) {
            let (chroma, lumaDepth, chromaDepth) = chromaAndDepths(of: sequence)
            record += [0xFC | chroma, 0xF8 | lumaDepth, 0xF8 | chromaDepth, 0]
        }
        return Data(record)
    }

    /// The profiles whose SPS names its chroma format and bit depths (ITU-T H.264 7.3.2.1.1).
    private static let profilesWithChromaFormat: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134]

    /// `chroma_format_idc`, `bit_depth_luma_minus8` and `bit_depth_chroma_minus8` of an SPS:
    /// 4:2:0 at 8 bits for profiles that do not say, or when the SPS is too short.
    private static func chromaAndDepths(of sequence: [UInt8]) -> (UInt8, UInt8, UInt8) {
        let standard: (UInt8, UInt8, UInt8) = (1, 0, 0)
        guard profilesWithChromaFormat.contains(sequence[1]) else { return standard }
        // The payload without the NAL header and its emulation prevention bytes (00 00 03).
        var payload: [UInt8] = []
        var zeros = 0
        for byte in sequence.dropFirst() {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            payload.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        var bit = 24  // after profile_idc, the constraint flags and level_idc
        /// The next bit, or nil past the end.
        func readBit() -> Int? {
            guard bit < payload.count * 8 else { return nil }
            defer { bit += 1 }
            return Int(payload[bit / 8] >> (7 - UInt8(bit % 8)) & 1)
        }
        /// An unsigned Exp-Golomb number (`ue(v)`).
        func readNumber() -> Int? {
            var leadingZeros = 0
            while true {
                guard let next = readBit() else { return nil }
                if next == 1 { break }
                leadingZeros += 1
                if leadingZeros > 31 { return nil }
            }
            var value = 0
            for _ in 0..<leadingZeros {
                guard let next = readBit() else { return nil }
                value = value << 1 | next
            }
            return (1 << leadingZeros) - 1 + value
        }
        guard readNumber() != nil, let chroma = readNumber(), chroma <= 3 else { return standard }  // after seq_parameter_set_id
        if chroma == 3 { guard readBit() != nil else { return standard } }  // separate_colour_plane_flag
        guard let lumaDepth = readNumber(), let chromaDepth = readNumber(), lumaDepth <= 7, chromaDepth <= 7 else { return standard }
        return (UInt8(chroma), UInt8(lumaDepth), UInt8(chromaDepth))
    }
}
