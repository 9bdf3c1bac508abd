import Foundation
import OpenCoreVideo

/// The `NSError` in `NSOSStatusErrorDomain` for a status: what the Swift methods of Apple's
/// overlay throw for what the C-style functions return.
func osStatusError(_ status: OSStatus) -> NSError {
    NSError(domain: NSOSStatusErrorDomain, code: Int(status))
}

/// Throws `osStatusError(status)` for a status that is not `noErr`.
func throwIfError(_ status: OSStatus) throws {
    guard status == noErr else { throw osStatusError(status) }
}
