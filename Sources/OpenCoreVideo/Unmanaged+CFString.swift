import Foundation

/// The strings that have been passed as CoreFoundation object pointers, kept for the process:
/// a `CFString` constant is a Swift `String` here, so each one gets one lasting `NSString`.
private let passedStrings = PassedStrings()

private final class PassedStrings: @unchecked Sendable {
    private let lock = NSLock()
    private var objects: [String: NSString] = [:]

    func object(for string: String) -> NSString {
        lock.withLock {
            if let object = objects[string] { return object }
            let object = NSString(string: string)
            objects[string] = object
            return object
        }
    }
}

extension Unmanaged where Instance == NSString {
    /// An unretained reference to a string, for CoreFoundation's pointer-taking functions
    /// (`CFDictionarySetValue(dict, Unmanaged.passUnretained(kCMSampleAttachmentKey_NotSync).toOpaque(), …)`).
    ///
    /// Linux addition: `CFString` is `String` here, not a class, so the string is turned into
    /// one `NSString` kept for the life of the process (one per distinct string: constants,
    /// as such code passes), whose pointer stays valid as Apple's constants' do.
    public static func passUnretained(_ value: String) -> Unmanaged<NSString> {
        Unmanaged<NSString>.passUnretained(passedStrings.object(for: value))
    }
}
