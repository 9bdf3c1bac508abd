import Foundation
import OpenCoreVideo

/// An immutable description of a media format: media type, codec, and type-specific details
/// (video dimensions; an audio stream description, channel layout and magic cookie) plus an
/// extensions dictionary.
///
/// Differs from Apple: a Swift class rather than a CoreFoundation type. `==` and `hash(into:)`
/// follow `CMFormatDescriptionEqual`, as CoreFoundation equality does on Apple platforms.
public final class CMFormatDescription: Hashable, CustomStringConvertible, @unchecked Sendable {
    // Everything is set once in init and never mutated, so sharing across threads is safe.
    // The audio parts live in heap memory owned by the instance so the pointers returned by
    // the C-style getters stay valid for the description's lifetime, as on Apple platforms.

    let storedMediaType: CMMediaType
    let storedMediaSubType: FourCharCode
    /// Extensions as Foundation objects (NSNumber, NSString, NSData, NSArray, NSDictionary).
    let storedExtensions: NSDictionary?
    let storedDimensions: CMVideoDimensions?
    private let asbdStorage: UnsafeMutablePointer<AudioStreamBasicDescription>?
    private let layoutStorage: UnsafeMutableRawPointer?
    let layoutSize: Int
    private let cookieStorage: UnsafeMutableRawPointer?
    let cookieSize: Int

    /// Codec-specific configuration bytes (avcC, hvcC, esds payload, …) as the demuxer gave them.
    ///
    /// Package access: the public surface shows them only the Apple ways, as the
    /// `SampleDescriptionExtensionAtoms` extension for video and as the magic cookie for audio.
    package let codecPrivateData: Data?
    /// A text description's font names by local font ID (3GPP text's font table; QuickTime
    /// text's one name under every ID, as -1), held so that `CMTextFormatDescriptionGetFontName`
    /// can hand out a string the description keeps alive.
    let textFontNames: [Int: NSString]

    init(mediaType: CMMediaType, mediaSubType: FourCharCode, extensions: NSDictionary?,
         dimensions: CMVideoDimensions?, asbd: AudioStreamBasicDescription?,
         layoutBytes: [UInt8]?, cookieBytes: [UInt8]?, codecPrivateData: Data?) {
        storedMediaType = mediaType
        storedMediaSubType = mediaSubType
        storedExtensions = extensions.flatMap {
            $0.count == 0 ? nil : CMFormatDescription.propertyListCopy($0) as? NSDictionary
        }
        storedDimensions = dimensions
        if let asbd {
            let pointer = UnsafeMutablePointer<AudioStreamBasicDescription>.allocate(capacity: 1)
            pointer.initialize(to: asbd)
            asbdStorage = pointer
        } else {
            asbdStorage = nil
        }
        (layoutStorage, layoutSize) = CMFormatDescription.copyBytes(
            layoutBytes, alignment: MemoryLayout<AudioChannelLayout>.alignment)
        (cookieStorage, cookieSize) = CMFormatDescription.copyBytes(cookieBytes, alignment: 16)
        self.codecPrivateData = codecPrivateData
        textFontNames = mediaType == kCMMediaType_Text || mediaType == kCMMediaType_Subtitle
            ? CMFormatDescription.fontNames(in: storedExtensions) : [:]
    }

    deinit {
        asbdStorage?.deinitialize(count: 1)
        asbdStorage?.deallocate()
        layoutStorage?.deallocate()
        cookieStorage?.deallocate()
    }

    /// Makes a description straight from demuxer codec parameters.
    ///
    /// Package access, for the FFmpeg layer. `codecPrivateData` (the codec's configuration
    /// record, such as avcC, hvcC or an AudioSpecificConfig) becomes the magic cookie of an
    /// audio description, and for video the `SampleDescriptionExtensionAtoms` entry named
    /// `sampleDescriptionAtom` (by default the ISO atom for the codec: `avcC`, `hvcC`, `av1C`,
    /// `vpcC`, `esds`; no atom when the codec has none). A `channelLayoutTag` becomes the
    /// audio channel layout.
    package convenience init(mediaType: CMMediaType, mediaSubType: FourCharCode,
                             dimensions: CMVideoDimensions? = nil,
                             audioStreamBasicDescription: AudioStreamBasicDescription? = nil,
                             channelLayoutTag: AudioChannelLayoutTag? = nil,
                             extensions: [String: Any] = [:],
                             codecPrivateData: Data? = nil,
                             sampleDescriptionAtom: String? = nil) {
        var allExtensions = extensions
        if mediaType == kCMMediaType_Video, let codecPrivateData, !codecPrivateData.isEmpty,
           let atom = sampleDescriptionAtom ?? CMFormatDescription.defaultAtom(for: mediaSubType) {
            var atoms = (allExtensions[kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms]
                as? [String: Any]) ?? [:]
            atoms[atom] = codecPrivateData
            allExtensions[kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms] = atoms
        }
        let layoutBytes = channelLayoutTag.map { tag -> [UInt8] in
            let layout = AudioChannelLayout(mChannelLayoutTag: tag, mChannelBitmap: [], mNumberChannelDescriptions: 0,
                                            mChannelDescriptions: AudioChannelDescription())
            return withUnsafeBytes(of: layout) { Array($0) }
        }
        let cookie = mediaType == kCMMediaType_Audio ? codecPrivateData.map { Array($0) } : nil
        self.init(mediaType: mediaType, mediaSubType: mediaSubType,
                  extensions: allExtensions.isEmpty ? nil : CMFormatDescription.propertyListCopy(allExtensions) as? NSDictionary,
                  dimensions: dimensions, asbd: audioStreamBasicDescription,
                  layoutBytes: layoutBytes, cookieBytes: cookie, codecPrivateData: codecPrivateData)
    }

    // MARK: Storage helpers

    private static func copyBytes(_ bytes: [UInt8]?, alignment: Int) -> (UnsafeMutableRawPointer?, Int) {
        guard let bytes, !bytes.isEmpty else { return (nil, 0) }
        let storage = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: alignment)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        return (storage, bytes.count)
    }

    static func defaultAtom(for subType: FourCharCode) -> String? {
        switch subType {
        case kCMVideoCodecType_H264: return "avcC"
        case kCMVideoCodecType_HEVC, kCMVideoCodecType_HEVCWithAlpha, FourCharCode(fourCC: "hev1"): return "hvcC"
        case kCMVideoCodecType_AV1: return "av1C"
        case kCMVideoCodecType_VP9: return "vpcC"
        case kCMVideoCodecType_MPEG4Video: return "esds"
        default: return nil
        }
    }

    /// A deep copy of a property list made of Foundation objects, so that values read back are
    /// Foundation objects whatever Swift values were passed in.
    static func propertyListCopy(_ value: Any) -> AnyObject {
        switch value {
        case let dictionary as NSDictionary:
            var keys: [NSString] = []
            var values: [AnyObject] = []
            for (key, element) in dictionary {
                keys.append(NSString(string: (key as? String) ?? "\(key)"))
                values.append(propertyListCopy(element))
            }
            return NSDictionary(objects: values, forKeys: keys)
        case let dictionary as [String: Any]:
            return propertyListCopy(dictionary as NSDictionary)
        case let array as NSArray:
            return NSArray(array: array.map { propertyListCopy($0) })
        case let array as [Any]:
            return NSArray(array: array.map { propertyListCopy($0) })
        case let data as Data:
            return NSData(data: data)
        case let data as NSData:
            return NSData(data: data as Data)
        case let string as String:
            return NSString(string: string)
        case let bool as Bool:
            return NSNumber(value: bool)
        case let number as NSNumber:
            return number
        case let int as Int:
            return NSNumber(value: int)
        case let double as Double:
            return NSNumber(value: double)
        default:
            return value as AnyObject
        }
    }

    // MARK: Accessors used by the functions

    var asbdPointer: UnsafePointer<AudioStreamBasicDescription>? { asbdStorage.map { UnsafePointer($0) } }
    var layoutPointer: UnsafePointer<AudioChannelLayout>? {
        layoutStorage.map { UnsafePointer($0.assumingMemoryBound(to: AudioChannelLayout.self)) }
    }
    var cookiePointer: UnsafeRawPointer? { cookieStorage.map { UnsafeRawPointer($0) } }

    // MARK: Equality

    /// Whether two descriptions describe the same format: `CMFormatDescriptionEqual`.
    public static func == (lhs: CMFormatDescription, rhs: CMFormatDescription) -> Bool {
        if lhs === rhs { return true }
        guard lhs.storedMediaType == rhs.storedMediaType, lhs.storedMediaSubType == rhs.storedMediaSubType,
              lhs.storedDimensions == rhs.storedDimensions,
              lhs.asbdStorage?.pointee == rhs.asbdStorage?.pointee,
              lhs.layoutSize == rhs.layoutSize, lhs.cookieSize == rhs.cookieSize else { return false }
        if let l = lhs.layoutStorage, let r = rhs.layoutStorage, memcmp(l, r, lhs.layoutSize) != 0 { return false }
        if let l = lhs.cookieStorage, let r = rhs.cookieStorage, memcmp(l, r, lhs.cookieSize) != 0 { return false }
        switch (lhs.storedExtensions, rhs.storedExtensions) {
        case (nil, nil): return true
        case let (l?, r?): return l.isEqual(r)
        default: return false
        }
    }

    /// Hashes the media type, subtype and dimensions, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedMediaType)
        hasher.combine(storedMediaSubType)
        hasher.combine(storedDimensions)
    }

    /// A short description such as `CMFormatDescription(vide/avc1 1920x1080)`.
    public var description: String {
        var text = "CMFormatDescription(\(storedMediaType.fourCCString)/\(storedMediaSubType.fourCCString)"
        if let d = storedDimensions { text += " \(d.width)x\(d.height)" }
        if let a = asbdStorage?.pointee { text += " \(a.mSampleRate) Hz \(a.mChannelsPerFrame) ch" }
        return text + ")"
    }
}
