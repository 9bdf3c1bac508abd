import Foundation
import OpenCoreVideo

/// Creates an audio format description from a stream description, an optional channel layout
/// and magic cookie, and extensions. All inputs are copied.
///
/// `layoutSize` is the byte size of `layout`, which may hold more channel descriptions than the
/// struct's one slot.
@discardableResult
public func CMAudioFormatDescriptionCreate(
    allocator: CFAllocator?, asbd: UnsafePointer<AudioStreamBasicDescription>, layoutSize: Int,
    layout: UnsafePointer<AudioChannelLayout>?, magicCookieSize: Int, magicCookie: UnsafeRawPointer?,
    extensions: CFDictionary?, formatDescriptionOut: UnsafeMutablePointer<CMAudioFormatDescription?>
) -> OSStatus {
    formatDescriptionOut.pointee = nil
    let description = asbd.pointee
    guard layoutSize >= 0, magicCookieSize >= 0,
          layoutSize == 0 || layout != nil,
          magicCookieSize == 0 || magicCookie != nil,
          description.mSampleRate >= 0 else {
        return kCMFormatDescriptionError_InvalidParameter
    }
    var layoutBytes: [UInt8]?
    if let layout, layoutSize > 0 {
        let header = MemoryLayout<AudioChannelLayout>.offset(of: \AudioChannelLayout.mChannelDescriptions)!
        guard layoutSize >= header else { return kCMFormatDescriptionError_InvalidParameter }
        layoutBytes = Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(layout), count: layoutSize))
        // Always keep room for the struct itself so the returned pointer can be read as one.
        if layoutBytes!.count < MemoryLayout<AudioChannelLayout>.size {
            layoutBytes! += [UInt8](repeating: 0, count: MemoryLayout<AudioChannelLayout>.size - layoutBytes!.count)
        }
    }
    let cookieBytes = magicCookie.map { Array(UnsafeRawBufferPointer(start: $0, count: magicCookieSize)) }
    formatDescriptionOut.pointee = CMFormatDescription(
        mediaType: kCMMediaType_Audio, mediaSubType: description.mFormatID, extensions: extensions,
        dimensions: nil, asbd: description, layoutBytes: layoutBytes, cookieBytes: cookieBytes,
        codecPrivateData: cookieBytes.map { Data($0) })
    return noErr
}

/// The stream description inside an audio format description; `nil` for other media types.
///
/// The pointer stays valid as long as the format description lives.
public func CMAudioFormatDescriptionGetStreamBasicDescription(
    _ desc: CMAudioFormatDescription
) -> UnsafePointer<AudioStreamBasicDescription>? {
    desc.asbdPointer
}

/// The channel layout inside an audio format description and its byte size; `nil` when absent.
///
/// The pointer stays valid as long as the format description lives.
public func CMAudioFormatDescriptionGetChannelLayout(
    _ desc: CMAudioFormatDescription, sizeOut: UnsafeMutablePointer<Int>?
) -> UnsafePointer<AudioChannelLayout>? {
    sizeOut?.pointee = desc.layoutPointer == nil ? 0 : desc.layoutSize
    return desc.layoutPointer
}

/// The magic cookie (codec configuration, such as an AAC AudioSpecificConfig) inside an audio
/// format description and its byte size; `nil` when absent.
///
/// The pointer stays valid as long as the format description lives.
public func CMAudioFormatDescriptionGetMagicCookie(
    _ desc: CMAudioFormatDescription, sizeOut: UnsafeMutablePointer<Int>?
) -> UnsafeRawPointer? {
    sizeOut?.pointee = desc.cookiePointer == nil ? 0 : desc.cookieSize
    return desc.cookiePointer
}

extension CMFormatDescription {
    /// The audio stream description; `nil` for non-audio descriptions.
    public var audioStreamBasicDescription: AudioStreamBasicDescription? { asbdPointer?.pointee }

    /// The audio channel layout's fixed-size part; `nil` when there is none.
    ///
    /// Differs from Apple: Apple returns a `ManagedAudioChannelLayout` object; this returns the
    /// `AudioChannelLayout` struct, whose `mChannelDescriptions` holds only the first channel
    /// description. Use `CMAudioFormatDescriptionGetChannelLayout` for all of them.
    public var audioChannelLayout: AudioChannelLayout? { layoutPointer?.pointee }
}
