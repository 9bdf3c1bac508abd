import Foundation

/// Lets a typed string of Apple's API (`AVFileType`, `AVVideoCodecType`, `AVMetadataKey`, …)
/// convert to and from `NSString` with `as`, as Apple's do (`AVFileType.mov as NSString`,
/// `value as? AVMetadataKey`): each is an `_ObjectiveCBridgeable` whose Objective-C form is its
/// raw string, the way Foundation on Linux bridges `String` itself.
///
/// Underscored and not meant to be used by name, as Apple's own `_CMObjectiveCBridgeableWithRawValue`.
public protocol _AVTypedStringBridgeable: RawRepresentable, _ObjectiveCBridgeable
where RawValue == String, _ObjectiveCType == NSString {
    /// Makes the value from its raw string.
    init(rawValue: String)
}

extension _AVTypedStringBridgeable {
    /// The raw string as an `NSString`.
    public func _bridgeToObjectiveC() -> NSString { rawValue._bridgeToObjectiveC() }

    /// The value of `source`.
    public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout Self?) {
        result = Self(rawValue: String._unconditionallyBridgeFromObjectiveC(source))
    }

    /// The value of `source`; always succeeds (every string is a value of the type).
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout Self?) -> Bool {
        result = Self(rawValue: String._unconditionallyBridgeFromObjectiveC(source))
        return true
    }

    /// The value of `source` (the empty string when nil).
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> Self {
        Self(rawValue: source.map { String._unconditionallyBridgeFromObjectiveC($0) } ?? "")
    }
}

extension AVFileType: _AVTypedStringBridgeable {}
extension AVFileTypeProfile: _AVTypedStringBridgeable {}
extension AVMediaType: _AVTypedStringBridgeable {}
extension AVMediaCharacteristic: _AVTypedStringBridgeable {}
extension AVMetadataKey: _AVTypedStringBridgeable {}
extension AVMetadataKeySpace: _AVTypedStringBridgeable {}
extension AVMetadataIdentifier: _AVTypedStringBridgeable {}
extension AVMetadataFormat: _AVTypedStringBridgeable {}
extension AVMetadataExtraAttributeKey: _AVTypedStringBridgeable {}
extension AVVideoCodecType: _AVTypedStringBridgeable {}
extension AVVideoApertureMode: _AVTypedStringBridgeable {}
extension AVAudioTimePitchAlgorithm: _AVTypedStringBridgeable {}
extension AVOutputSettingsPreset: _AVTypedStringBridgeable {}
extension AVLayerVideoGravity: _AVTypedStringBridgeable {}
extension AVCaptureSession.Preset: _AVTypedStringBridgeable {}
extension AVCaptureDevice.DeviceType: _AVTypedStringBridgeable {}
extension AVAssetImageGenerator.ApertureMode: _AVTypedStringBridgeable {}
extension AVPlayer.WaitingReason: _AVTypedStringBridgeable {}
extension AVPlayer.RateDidChangeReason: _AVTypedStringBridgeable {}
extension AVAssetTrack.AssociationType: _AVTypedStringBridgeable {}
